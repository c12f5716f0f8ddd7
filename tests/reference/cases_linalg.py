"""Reference cases for linear algebra (tests/core/linalg_test.cpp).

Inputs are composed into the matrices each op needs: well(a) = a + 3 I (well-conditioned),
spd(a) = a aᵀ + n I (symmetric positive-definite), sym(a) = a + aᵀ. Eigenvectors and singular
vectors are unique up to sign only, and LAPACK and Eigen may choose differently: the cases fix
each vector's sign by its first element (fixed_columns), which leaves values and gradients
defined. pinv and matrix_rank of a rank-deficient product are forward only: a finite difference
changes the rank.
"""
import torch

from op_case import Case, S


def eye_like(a):
    return torch.eye(a.shape[-1], dtype=a.dtype)


def well(a):
    return a + 3 * eye_like(a)


def spd(a):
    return a @ a.mT + a.shape[-1] * eye_like(a)


def sym(a):
    return a + a.mT


def column_signs(v):
    """The sign of each column's first element, as a row [..., 1, k]."""
    return torch.sign(v[..., :1, :])


def fixed_columns(v):
    return v * column_signs(v)


def fixed_svd(a, full_matrices=False):
    """U and Vh with U's columns (and Vh's rows alike) signed by U's first row."""
    u, s, vh = torch.linalg.svd(a, full_matrices=full_matrices)
    k = s.shape[-1]
    u, vh = u[..., :k], vh[..., :k, :]
    signs = column_signs(u)
    return u * signs, s, vh * signs.mT


# A constant lower triangle that eigh with UPLO="U" must ignore.
JUNK_LOWER = torch.tril(torch.full((4, 4), 7.0), -1)
# Zeros column 2: an exactly singular matrix.
ZERO_COLUMN = torch.tensor([[1.0, 1.0, 0.0, 1.0]])

CASES = {
    # inverses and solves
    "inv": Case(lambda a: torch.linalg.inv(well(a)), [S(3, 3)]),
    "inv_batch": Case(lambda a: torch.linalg.inv(well(a)), [S(2, 4, 4)]),
    "inverse": Case(lambda a: torch.inverse(well(a)), [S(3, 3)]),
    "solve": Case(lambda a, b: torch.linalg.solve(well(a), b), [S(3, 3), S(3, 2)]),
    "solve_vector": Case(lambda a, b: torch.linalg.solve(well(a), b), [S(3, 3), S(3)]),
    "solve_batch_of_vectors": Case(lambda a, b: torch.linalg.solve(well(a), b),
                                   [S(2, 3, 3), S(2, 3)]),
    "solve_broadcast": Case(lambda a, b: torch.linalg.solve(well(a), b),
                            [S(2, 1, 3, 3), S(4, 3, 2)]),
    "solve_right": Case(lambda a, b: torch.linalg.solve(well(a), b, left=False),
                        [S(3, 3), S(2, 3)]),
    # determinants
    "det": Case(lambda a: torch.linalg.det(a), [S(4, 4)]),
    "det_batch": Case(lambda a: torch.det(a), [S(3, 3, 3)]),
    "det_singular": Case(lambda a: torch.linalg.det(a * ZERO_COLUMN), [S(4, 4)]),
    "slogdet_logabsdet": Case(lambda a: torch.linalg.slogdet(a)[1], [S(2, 4, 4)]),
    "slogdet_sign": Case(lambda a: torch.linalg.slogdet(a)[0], [S(3, 4, 4)], grad=False),
    "logdet": Case(lambda a: torch.logdet(spd(a)), [S(3, 3)]),
    "logdet_negative": Case(lambda a: torch.logdet(-spd(a)), [S(3, 3)], grad=False),
    # triangular solves and Cholesky
    "solve_triangular_upper":
        Case(lambda a, b: torch.linalg.solve_triangular(well(a), b, upper=True),
             [S(3, 3), S(3, 2)]),
    "solve_triangular_lower_unit":
        Case(lambda a, b: torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True),
             [S(3, 3), S(3, 4)]),
    "solve_triangular_right":
        Case(lambda a, b: torch.linalg.solve_triangular(well(a), b, upper=False, left=False),
             [S(3, 3), S(2, 3)]),
    "solve_triangular_broadcast":
        Case(lambda a, b: torch.linalg.solve_triangular(well(a), b, upper=True),
             [S(2, 3, 3), S(3, 2)]),
    "cholesky": Case(lambda a: torch.linalg.cholesky(spd(a)), [S(3, 3)]),
    "cholesky_upper": Case(lambda a: torch.linalg.cholesky(spd(a), upper=True), [S(3, 3)]),
    "cholesky_batch": Case(lambda a: torch.linalg.cholesky(spd(a)), [S(2, 4, 4)]),
    "cholesky_solve":
        Case(lambda a, b: torch.cholesky_solve(b, torch.linalg.cholesky(spd(a))),
             [S(3, 3), S(3, 2)]),
    "cholesky_solve_upper":
        Case(lambda a, b: torch.cholesky_solve(b, torch.linalg.cholesky(spd(a), upper=True),
                                               upper=True), [S(3, 3), S(3, 2)]),
    "cholesky_inverse": Case(lambda a: torch.cholesky_inverse(torch.linalg.cholesky(spd(a))),
                             [S(3, 3)]),
    # QR
    "qr_tall": Case(lambda a: torch.cat([t.flatten() for t in torch.linalg.qr(a)]), [S(5, 3)]),
    "qr_wide": Case(lambda a: torch.cat([t.flatten() for t in torch.linalg.qr(a)]), [S(3, 5)]),
    "qr_square_batch": Case(lambda a: torch.cat([t.flatten() for t in torch.linalg.qr(a)]),
                            [S(2, 3, 3)]),
    "qr_complete": Case(lambda a: torch.cat([t.flatten() for t in torch.linalg.qr(a, "complete")]),
                        [S(3, 4)]),
    "qr_r": Case(lambda a: torch.linalg.qr(a, "r")[1], [S(4, 3)], grad=False),
    "qr_complete_tall_forward":
        Case(lambda a: torch.cat([t.flatten() for t in torch.linalg.qr(a, "complete")]), [S(4, 2)],
             grad=False),
    # symmetric eigen-decomposition
    "eigh_values": Case(lambda a: torch.linalg.eigh(sym(a))[0], [S(4, 4)]),
    "eigh_vectors": Case(lambda a: fixed_columns(torch.linalg.eigh(sym(a))[1]), [S(4, 4)]),
    "eigh_upper": Case(lambda a: torch.linalg.eigh(sym(a) + JUNK_LOWER, UPLO="U")[0], [S(4, 4)]),
    "eigh_upper_vectors":
        Case(lambda a: fixed_columns(torch.linalg.eigh(sym(a) + JUNK_LOWER, UPLO="U")[1]),
             [S(4, 4)]),
    "eigvalsh": Case(lambda a: torch.linalg.eigvalsh(sym(a)), [S(2, 3, 3)]),
    # SVD
    "svd_values": Case(lambda a: torch.linalg.svd(a)[1], [S(4, 3)]),
    "svd_u_tall": Case(lambda a: fixed_svd(a)[0], [S(4, 3)]),
    "svd_vh_tall": Case(lambda a: fixed_svd(a)[2], [S(4, 3)]),
    "svd_u_wide": Case(lambda a: fixed_svd(a)[0], [S(3, 5)]),
    "svd_vh_wide": Case(lambda a: fixed_svd(a)[2], [S(3, 5)]),
    "svd_full_u_leading": Case(lambda a: fixed_svd(a, True)[0], [S(2, 5, 3)]),
    # The full U's rows are unit vectors (its last columns are any orthonormal completion).
    "svd_full_u_shape": Case(lambda a: torch.linalg.svd(a)[0].square().sum(-1), [S(5, 3)],
                             grad=False),
    "svdvals": Case(lambda a: torch.linalg.svdvals(a), [S(2, 3, 4)]),
    # from the spectrum
    "pinv_tall": Case(lambda a: torch.linalg.pinv(a), [S(4, 3)]),
    "pinv_wide": Case(lambda a: torch.linalg.pinv(a), [S(2, 5)]),
    "pinv_hermitian": Case(lambda a: torch.linalg.pinv(sym(a), hermitian=True), [S(3, 3)]),
    "pinv_rank_deficient": Case(lambda a, b: torch.linalg.pinv(a @ b), [S(4, 2), S(2, 5)],
                                grad=False),
    "pinverse": Case(lambda a: torch.pinverse(a), [S(3, 4)]),
    "matrix_rank": Case(lambda a, b: torch.linalg.matrix_rank(a @ b), [S(3, 4, 2), S(2, 5)],
                        grad=False),
    "matrix_rank_atol": Case(lambda a: torch.linalg.matrix_rank(a, atol=1.0), [S(4, 4)],
                             grad=False),
    "matrix_rank_hermitian":
        Case(lambda a: torch.linalg.matrix_rank(a @ a.mT, hermitian=True), [S(4, 2)], grad=False),
    "cond": Case(lambda a: torch.linalg.cond(well(a)), [S(3, 3)]),
    "cond_batch_neg2": Case(lambda a: torch.linalg.cond(a, -2), [S(2, 3, 4)]),
    # PyTorch's cond for norms other than 2 fails in backward (it overwrites the inverse).
    "cond_fro": Case(lambda a: torch.linalg.cond(well(a), "fro"), [S(3, 3)], grad=False),
    "cond_1": Case(lambda a: torch.linalg.cond(well(a), 1), [S(3, 3)], grad=False),
    # norms
    "vector_norm": Case(lambda a: torch.linalg.vector_norm(a, 3, dim=(0,)), [S(3, 4)]),
    "matrix_norm_fro": Case(lambda a: torch.linalg.matrix_norm(a), [S(2, 3, 4)]),
    "matrix_norm_nuc": Case(lambda a: torch.linalg.matrix_norm(a, "nuc"), [S(3, 4)]),
    "matrix_norm_2": Case(lambda a: torch.linalg.matrix_norm(a, 2), [S(2, 4, 3)]),
    "matrix_norm_neg2": Case(lambda a: torch.linalg.matrix_norm(a, -2), [S(3, 4)]),
    "matrix_norm_1": Case(lambda a: torch.linalg.matrix_norm(a, 1), [S(3, 4)]),
    "matrix_norm_neg1": Case(lambda a: torch.linalg.matrix_norm(a, -1), [S(3, 4)]),
    "matrix_norm_inf_dims_keepdim":
        Case(lambda a: torch.linalg.matrix_norm(a, float("inf"), dim=(2, 0), keepdim=True),
             [S(3, 2, 4)]),
    "matrix_norm_neg_inf": Case(lambda a: torch.linalg.matrix_norm(a, -float("inf")), [S(3, 4)]),
    "matrix_norm_2_dims_keepdim":
        Case(lambda a: torch.linalg.matrix_norm(a, 2, dim=(0, 2), keepdim=True), [S(3, 2, 4)]),
    # products
    "matrix_power_3": Case(lambda a: torch.linalg.matrix_power(a, 3), [S(3, 3)]),
    "matrix_power_6_batch": Case(lambda a: torch.matrix_power(a * 0.5, 6), [S(2, 3, 3)]),
    "matrix_power_neg2": Case(lambda a: torch.linalg.matrix_power(well(a), -2), [S(3, 3)]),
    "matrix_power_0": Case(lambda a: torch.linalg.matrix_power(a, 0), [S(2, 3, 3)], grad=False),
    "multi_dot": Case(lambda a, b, c: torch.linalg.multi_dot([a, b, c]),
                      [S(3, 4), S(4, 6), S(6, 2)]),
    "multi_dot_vectors": Case(lambda a, b, c, d: torch.linalg.multi_dot([a, b, c, d]),
                              [S(4), S(4, 3), S(3, 5), S(5)]),
    "vecdot": Case(lambda a, b: torch.linalg.vecdot(a, b), [S(3, 4), S(4)]),
    # the matrix exponential
    "matrix_exp": Case(lambda a: torch.linalg.matrix_exp(a), [S(3, 3)]),
    "matrix_exp_batch_scaled": Case(lambda a: torch.matrix_exp(a * 3), [S(2, 4, 4)]),
    # least squares
    "lstsq_tall": Case(lambda a, b: torch.linalg.lstsq(a, b).solution, [S(5, 3), S(5, 2)]),
    "lstsq_wide": Case(lambda a, b: torch.linalg.lstsq(a, b).solution, [S(3, 5), S(3, 2)]),
    "lstsq_gelsd_residuals":
        Case(lambda a, b: torch.linalg.lstsq(a, b, driver="gelsd").residuals, [S(5, 3), S(5, 2)]),
    "lstsq_gelss_singular_values":
        Case(lambda a, b: torch.linalg.lstsq(a, b, driver="gelss").singular_values,
             [S(5, 3), S(5, 2)], grad=False),
    "lstsq_rank_deficient":
        Case(lambda a, b, c: torch.linalg.lstsq(a @ b, c).rank, [S(5, 2), S(2, 3), S(5, 2)],
             grad=False),
    "lstsq_rank_deficient_solution":
        Case(lambda a, b, c: torch.linalg.lstsq(a @ b, c, driver="gelsd").solution,
             [S(5, 2), S(2, 3), S(5, 2)], grad=False),
    # singular and empty matrices
    "cond_singular_fro": Case(lambda a: torch.linalg.cond(a * ZERO_COLUMN, "fro"), [S(2, 4, 4)],
                              grad=False),
    "matrix_norm_2_empty": Case(lambda a: torch.linalg.matrix_norm(a, 2), [S(2, 0, 3)],
                                grad=False),
    # LU factors
    "lu_factor": Case(lambda a: torch.linalg.lu_factor(a)[0], [S(2, 4, 4)]),
    "lu_factor_pivots": Case(lambda a: torch.linalg.lu_factor(a)[1], [S(3, 5, 5)], grad=False),
    "lu_p": Case(lambda a: torch.linalg.lu(a)[0], [S(2, 4, 4)], grad=False),
    "lu_l": Case(lambda a: torch.linalg.lu(a)[1], [S(4, 4)]),
    "lu_u": Case(lambda a: torch.linalg.lu(a)[2], [S(4, 4)]),
    "lu_solve": Case(lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(well(a)), b),
                     [S(2, 3, 3), S(2, 3, 2)]),
    "lu_solve_adjoint":
        Case(lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(well(a)), b, adjoint=True),
             [S(3, 3), S(3, 2)]),
    "lu_solve_right":
        Case(lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(well(a)), b, left=False),
             [S(3, 3), S(2, 3)]),
    "lu_solve_broadcast":
        Case(lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(well(a)), b),
             [S(3, 3), S(2, 3, 2)]),
    # the non-throwing variants
    "inv_ex": Case(lambda a: torch.linalg.inv_ex(well(a))[0], [S(3, 3)]),
    "inv_ex_info": Case(lambda a: torch.linalg.inv_ex(a * ZERO_COLUMN)[1], [S(2, 4, 4)],
                        grad=False),
    "cholesky_ex": Case(lambda a: torch.linalg.cholesky_ex(spd(a))[0], [S(3, 3)]),
    "cholesky_ex_info": Case(lambda a: torch.linalg.cholesky_ex(sym(a) - 4 * eye_like(a))[1],
                             [S(3, 3, 3)], grad=False),
    # linalg.norm
    "norm_default": Case(lambda a: torch.linalg.norm(a), [S(2, 3, 4)]),
    "norm_vector_ord": Case(lambda a: torch.linalg.norm(a, 3), [S(5)]),
    "norm_matrix_ord": Case(lambda a: torch.linalg.norm(a, float("inf")), [S(3, 4)]),
    "norm_dim_vector": Case(lambda a: torch.linalg.norm(a, 1, dim=1, keepdim=True), [S(3, 4)]),
    "norm_dim_matrix": Case(lambda a: torch.linalg.norm(a, -2, dim=(0, 2)), [S(3, 2, 4)]),
    "norm_nuc": Case(lambda a: torch.linalg.norm(a, "nuc"), [S(3, 4)]),
    "norm_fro_dims": Case(lambda a: torch.linalg.norm(a, "fro", dim=(1, 2)), [S(2, 3, 4)]),
    "norm_zero": Case(lambda a: torch.linalg.norm(a, 0), [S(6)], grad=False),
}
