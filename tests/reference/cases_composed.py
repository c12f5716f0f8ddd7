"""Reference cases for the ops composed from other ops (tests/core/ops_composed_test.cpp):
diagonal and its relatives, movedim, roll, tile, meshgrid; outer, addmm, baddbmm, tensordot,
cross and einsum; lerp, addcmul, addcdiv, square, reciprocal, nan_to_num, logit and xlogy."""
import math

import torch

from op_case import Case, S


def with_specials(a):
    """a with +inf above 1, -inf below -1 and NaN within 0.2 of zero."""
    return torch.where(a > 1, math.inf,
                       torch.where(a < -1, -math.inf, torch.where(a.abs() < 0.2, math.nan, a)))


CASES = {
    # Views and rearrangements.
    "diagonal": Case(lambda a: a.diagonal(), [S(3, 4)]),
    "diagonal_offset_dims": Case(lambda a: torch.diagonal(a, -1, 2, 0), [S(3, 2, 4)]),
    "diagonal_past_the_edge": Case(lambda a: torch.diagonal(a, 5), [S(3, 4)]),
    "movedim": Case(lambda a: torch.movedim(a, (0, 1), (3, 0)), [S(2, 3, 4, 5)]),
    "broadcast_to": Case(lambda a: torch.broadcast_to(a, (2, 3, 4)), [S(3, 1)]),
    "roll": Case(lambda a: torch.roll(a, (1, -5), (0, 2)), [S(3, 2, 4)]),
    "roll_flattened": Case(lambda a: torch.roll(a, 4), [S(3, 2)]),
    "tile": Case(lambda a: torch.tile(a, (2,)), [S(2, 3)]),
    "diag_embed": Case(lambda a: torch.diag_embed(a, 1, 0, 2), [S(2, 3)]),
    "diag_of_vector": Case(lambda a: torch.diag(a, -1), [S(3)]),
    "diag_of_matrix": Case(lambda a: torch.diag(a, 1), [S(3, 4)]),
    "trace": Case(torch.trace, [S(3, 4)]),
    "meshgrid_xy": Case(lambda a, b, c: torch.stack(torch.meshgrid(a, b, c, indexing="xy")),
                        [S(2), S(3), S(4)]),
    # Products.
    "outer": Case(torch.outer, [S(3), S(4)]),
    "addmm": Case(lambda a, m1, m2: torch.addmm(a, m1, m2, beta=0.5, alpha=2),
                  [S(4), S(3, 2), S(2, 4)]),
    "addmm_beta_zero": Case(lambda a, m1, m2: torch.addmm(a, m1, m2, beta=0),
                            [S(3, 4), S(3, 2), S(2, 4)]),
    "baddbmm": Case(lambda a, b1, b2: torch.baddbmm(a, b1, b2, alpha=-1),
                    [S(2, 3, 4), S(2, 3, 2), S(2, 2, 4)]),
    "tensordot": Case(lambda a, b: torch.tensordot(a, b, 2), [S(2, 3, 4), S(3, 4, 5)]),
    "tensordot_dims": Case(lambda a, b: torch.tensordot(a, b, ([0, 2], [2, 1])),
                           [S(2, 3, 4), S(5, 4, 2)]),
    "cross": Case(torch.linalg.cross, [S(2, 3), S(1, 3)]),
    "cross_dim": Case(lambda a, b: torch.linalg.cross(a, b, dim=0), [S(3, 2), S(3, 2)]),
    "einsum_matmul": Case(lambda a, b: torch.einsum("ij,jk->ik", a, b), [S(2, 3), S(3, 4)]),
    "einsum_batched_implicit": Case(lambda a, b: torch.einsum("bij,bjk", a, b),
                                    [S(2, 3, 4), S(2, 4, 2)]),
    "einsum_attention": Case(lambda q, k: torch.einsum("bhqd, bhkd -> bhqk", q, k),
                             [S(2, 2, 3, 4), S(2, 2, 5, 4)]),
    "einsum_diagonal": Case(lambda a: torch.einsum("bii->bi", a), [S(2, 3, 3)]),
    "einsum_trace": Case(lambda a: torch.einsum("ii", a), [S(3, 3)]),
    "einsum_ellipsis_broadcast": Case(lambda a, b: torch.einsum("...ij,...jk->...ik", a, b),
                                      [S(2, 3, 4), S(4, 2)]),
    "einsum_three_operands": Case(lambda a, b, c: torch.einsum("ij,jk,kl->il", a, b, c),
                                  [S(2, 3), S(3, 4), S(4, 2)]),
    "einsum_outer_then_sum": Case(lambda a, b: torch.einsum("i,j->", a, b), [S(3), S(4)]),
    "einsum_implicit_upper_case_first": Case(lambda a, b: torch.einsum("Ab,ab", a, b),
                                             [S(2, 3), S(2, 3)]),
    "einsum_size_one_broadcasts": Case(lambda a, b: torch.einsum("ij,jk", a, b),
                                       [S(2, 1), S(3, 4)]),
    "einsum_sum_broadcast_dims": Case(lambda a: torch.einsum("...ij->ji", a), [S(2, 3, 4)]),
    # Element-wise.
    "lerp_scalar_low": Case(lambda a, b: torch.lerp(a, b, 0.25), [S(3, 4), S(4)]),
    "lerp_scalar_high": Case(lambda a, b: torch.lerp(a, b, 0.75), [S(3, 4), S(3, 4)]),
    "lerp_tensor": Case(torch.lerp, [S(2, 3), S(2, 3), S(3, domain="unit")]),
    "addcmul": Case(lambda a, b, c: torch.addcmul(a, b, c, value=-0.5), [S(2, 3), S(3), S(2, 3)]),
    "addcdiv": Case(lambda a, b, c: torch.addcdiv(a, b, c, value=2),
                    [S(2, 3), S(2, 3), S(2, 3, domain="positive")]),
    "square": Case(torch.square, [S(3, 4)]),
    "reciprocal": Case(torch.reciprocal, [S(3, 4, domain="positive")]),
    "nan_to_num": Case(
        lambda a: torch.nan_to_num(with_specials(a), nan=0.5, posinf=2.0, neginf=-3.0), [S(4, 5)]),
    "nan_to_num_default_nan": Case(
        lambda a: torch.nan_to_num(torch.where(a.abs() < 0.2, math.nan, a)), [S(4, 5)]),
    "logit": Case(torch.logit, [S(6, domain="grid:0.1:0.15")]),
    "logit_eps": Case(lambda a: torch.logit(a, eps=0.25), [S(7, domain="grid:0.05:0.15")]),
    "xlogy": Case(torch.xlogy, [S(2, 4, domain="grid:-1:0.5"), S(4, domain="positive")]),
    # Indexing composed of scatter_add and masked_fill (the index repeats for index_add).
    "index_add": Case(lambda a, s: a.index_add(0, torch.tensor([1, 3, 1]), s, alpha=-2),
                      [S(4, 3), S(3, 3)]),
    "index_copy": Case(lambda a, s: torch.index_copy(a, 1, torch.tensor([2, 0]), s),
                       [S(2, 3), S(2, 2)]),
    "index_fill": Case(lambda a: a.index_fill(1, torch.tensor([0, 2, 0]), -1.5), [S(2, 4)]),
    # Element-wise ops composed of kernels (appended: the draws above stay the same).
    "frac": Case(torch.frac, [S(3, 4, domain="grid:-2.85:0.45")]),
    "deg2rad": Case(torch.deg2rad, [S(3, 4)]),
    "rad2deg": Case(torch.rad2deg, [S(3, 4)]),
    "float_power": Case(torch.float_power, [S(3, 4, domain="positive"), S(4)]),
    "float_power_scalar": Case(lambda a: torch.float_power(a, 3), [S(3, 4)]),
    "logaddexp2": Case(torch.logaddexp2, [S(3, 4), S(4)]),
    "sinc": Case(torch.sinc, [S(2, 5, domain="grid:-1:0.25")]),
    "heaviside": Case(lambda a, v: torch.heaviside(torch.where(a.abs() < 0.5, 0, a), v),
                      [S(3, 4), S(4)], grad=False),
    "isclose": Case(lambda a, b: torch.isclose(a, a + b * 1e-5), [S(3, 4), S(3, 4)], grad=False),
    "isclose_tolerances": Case(lambda a, b: torch.isclose(a, b, rtol=0.5, atol=0.1),
                               [S(3, 4), S(3, 4)], grad=False),
    "cdist": Case(torch.cdist, [S(4, 3), S(5, 3)]),
    "cdist_batched_p1": Case(lambda a, b: torch.cdist(a, b, p=1), [S(2, 3, 4), S(1, 2, 4)]),
    "cdist_p_half_and_inf": Case(
        lambda a, b: torch.cdist(a, b, p=0.5) + torch.cdist(a, b, p=math.inf), [S(3, 2), S(4, 2)]),
    "cdist_by_products": Case(torch.cdist, [S(30, 3), S(4, 3)]),
    "cdist_products_forced": Case(
        lambda a, b: torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), [S(2, 3, 2), S(3, 2)]),
    "cov": Case(torch.cov, [S(3, 6)]),
    "cov_vector_no_correction": Case(lambda a: torch.cov(a, correction=0), [S(5)]),
    "cov_weights": Case(
        lambda a, w: torch.cov(a, fweights=torch.tensor([1, 2, 0, 3, 1]), aweights=w),
        [S(2, 5), S(5, domain="positive")]),
    "corrcoef": Case(torch.corrcoef, [S(3, 7)]),
}
