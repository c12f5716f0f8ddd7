// Linear algebra: torch.linalg's solves, inverses, determinants, factorizations (Cholesky, QR,
// symmetric eigen-decomposition, SVD), pseudo-inverse, rank, least squares, norms, the matrix
// exponential and matrix products, as accel::linalg::…, and the torch.… names for some of them
// (inverse, det, logdet, slogdet, cholesky_solve, cholesky_inverse, pinverse, matrix_power,
// matrix_exp) in accel and as Tensor methods.
//
// Inputs are float32 or float64 matrices [..., m, n], batched over the leading dims (solves
// broadcast them). Every function is differentiable with PyTorch's formulas. The factorizations
// run on the CPU with Eigen; a CUDA tensor is factorized on the host (copied there and back, a
// synchronization), while the products around the factors — in the gradients too — run on the
// tensor's device. Failures are accel::Errors naming the op and the batch element: a singular
// matrix for inv and solve, a matrix that is not positive-definite for cholesky, non-finite input
// for eigh and svd.
#pragma once

#include <concepts>
#include <optional>
#include <string_view>
#include <tuple>

#include "accel/core/tensor.h"

namespace accel::linalg {

// ---- solves, inverse, determinants (core/linalg/lu.cpp) ----
Tensor inv(const Tensor& a);
// X with A X = B (X A = B when not `left`). B is [..., n, k], or a vector [n] or [..., n] (a batch
// of vectors when its shape is A's without the last dim), broadcast against A's batch dims.
Tensor solve(const Tensor& a, const Tensor& b, bool left = true);
Tensor det(const Tensor& a);
// (sign, log |det|): sign is -1, 0 or 1; a singular matrix gives (0, -inf).
std::tuple<Tensor, Tensor> slogdet(const Tensor& a);

// (inverse, info) without throwing: info [...] (int32) is 0 where the matrix was inverted, else
// the 1-based position of the zero on U's diagonal (the inverse there is not finite).
std::tuple<Tensor, Tensor> inv_ex(const Tensor& a);

// ---- LU factors (core/linalg/lu_factor.cpp) ----
// LU factorization with partial pivoting of square A: (LU, pivots), L below the diagonal (its
// unit diagonal implied) and U on and above it in one matrix, pivots [..., n] int32 and 1-based
// (row i was swapped with row pivots[i] - 1, in turn), as LAPACK and PyTorch give them. (PyTorch
// also factorizes rectangular matrices; accel's LU takes square ones.)
std::tuple<Tensor, Tensor> lu_factor(const Tensor& a);
// (P, L, U) with A = P L U.
std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& a);
// X with A X = B from lu_factor's factors of A (Aᵀ X = B when adjoint; X A = B when not left).
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left = true,
                bool adjoint = false);

// ---- triangular matrices and Cholesky (core/linalg/triangular.cpp) ----
// X with A X = B (X A = B when not `left`), reading only A's upper (or lower) triangle and not
// its diagonal when unitriangular (taken as ones).
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left = true,
                        bool unitriangular = false);
// L lower triangular with A = L Lᵀ (U upper with A = Uᵀ U when `upper`), for symmetric
// positive-definite A, of which only the lower triangle is read.
Tensor cholesky(const Tensor& a, bool upper = false);
// (L, info) without throwing: info [...] (int32) is 0 where the matrix was factorized, else the
// order of its first leading minor that is not positive-definite (L there is unspecified).
std::tuple<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper = false);

// ---- factorizations (core/linalg/qr.cpp, eigh.cpp, svd.cpp) ----
// (Q, R) with A = Q R: mode "reduced" (Q [m, k], R [k, n], k = min(m, n)), "complete" (Q [m, m],
// R [m, n]) or "r" (R only; Q is an empty tensor).
std::tuple<Tensor, Tensor> qr(const Tensor& a, std::string_view mode = "reduced");
// (eigenvalues ascending, eigenvectors as columns) of symmetric A, of which only the lower
// triangle is read (the upper with uplo "U"). Eigenvectors are unique up to sign only.
std::tuple<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo = "L");
Tensor eigvalsh(const Tensor& a, std::string_view uplo = "L");
// (U, S, Vh) with A = U diag(S) Vh, S descending; U [m, m] and Vh [n, n] when full_matrices,
// else [m, k] and [k, n]. Singular vectors are unique up to sign only; gradients flow through the
// first k columns of U and rows of Vh.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& a, bool full_matrices = true);
Tensor svdvals(const Tensor& a);

// ---- from the spectrum (core/linalg/spectral.cpp) ----
// Singular values below max(atol, rtol * the largest) count as zero; without either tolerance,
// rtol is eps(dtype) * max(m, n), as in PyTorch. hermitian: A is symmetric (eigh instead of svd).
Tensor pinv(const Tensor& a, std::optional<double> atol = std::nullopt,
            std::optional<double> rtol = std::nullopt, bool hermitian = false);
Tensor matrix_rank(const Tensor& a, std::optional<double> atol = std::nullopt,
                   std::optional<double> rtol = std::nullopt, bool hermitian = false);
// The condition number in the 2-norm: the largest singular value over the smallest.
Tensor cond(const Tensor& a);
// The condition number in a matrix norm ("fro", "nuc", inf, -inf, 1, -1, 2, -2): norm(A) *
// norm(A⁻¹) (2 and -2 from the singular values).
Tensor cond(const Tensor& a, const Scalar& p);
Tensor cond(const Tensor& a, std::string_view p);

// ---- norms (core/linalg/norms.cpp) ----
// torch.linalg.norm: without ord, the 2-norm of the elements over `dim` (every dim when empty; the
// Frobenius norm of matrices); with a numeric ord, vector_norm when dim names one dim (or x is
// 1-D), matrix_norm when it names two (or x is 2-D); a string ord ("fro", "nuc") is a matrix
// norm.
Tensor norm(const Tensor& x, std::optional<Scalar> ord = std::nullopt, IntArrayRef dim = {},
            bool keepdim = false);
Tensor norm(const Tensor& x, std::string_view ord, IntArrayRef dim = {}, bool keepdim = false);
// An integer ord (the literal 0 would convert to a string as readily).
template <std::integral T>
Tensor norm(const Tensor& x, T ord, IntArrayRef dim = {}, bool keepdim = false) {
  return norm(x, std::optional<Scalar>(ord), dim, keepdim);
}

// The ord-norm of x over `dim` (every dim when empty), as accel::norm.
Tensor vector_norm(const Tensor& x, const Scalar& ord = 2, IntArrayRef dim = {},
                   bool keepdim = false);
// Over the two dims `dim`: ord 1 / -1 (the largest / smallest column sum of |a|), inf / -inf (row
// sums), 2 / -2 (the largest / smallest singular value).
Tensor matrix_norm(const Tensor& a, const Scalar& ord, IntArrayRef dim = {-2, -1},
                   bool keepdim = false);
// ord "fro" (Frobenius) or "nuc" (nuclear: the sum of the singular values).
Tensor matrix_norm(const Tensor& a, std::string_view ord = "fro", IntArrayRef dim = {-2, -1},
                   bool keepdim = false);

// ---- least squares (core/linalg/lstsq.cpp) ----
// (solution, residuals, rank, singular_values) of min ||A X - B|| for B [..., m, k]: the
// minimum-norm solution pinv(A) B, singular values of A below rcond times the largest taken as
// zero (rcond defaults to eps(dtype) * max(m, n)). As PyTorch's CPU drivers report them: rank
// for "gelsy" (the default), "gelsd" and "gelss"; singular_values for "gelsd" and "gelss";
// residuals (the squared norms of A X - B's columns) for "gels", "gelsd" and "gelss" when m > n
// and every A has full rank. Outputs a driver does not report are empty tensors.
std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(
    const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt,
    std::optional<std::string_view> driver = std::nullopt);

// ---- the matrix exponential (core/linalg/matrix_exp.cpp) ----
Tensor matrix_exp(const Tensor& a);

// ---- products (core/linalg/products.cpp) ----
// A multiplied by itself n times: eye for n = 0, the inverse's powers for n < 0 (square A).
Tensor matrix_power(const Tensor& a, int64_t n);
// The product of the matrices in order, multiplied in the order that costs least; the first and
// last may be vectors (taken as a row and a column).
Tensor multi_dot(TensorList tensors);
// The sum over `dim` of x * y (broadcast).
Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);

}  // namespace accel::linalg

namespace accel {

// torch.inverse, torch.det, torch.slogdet, torch.matrix_power, torch.matrix_exp: linalg's.
Tensor inverse(const Tensor& a);
Tensor det(const Tensor& a);
std::tuple<Tensor, Tensor> slogdet(const Tensor& a);
Tensor matrix_power(const Tensor& a, int64_t n);
Tensor matrix_exp(const Tensor& a);
// log(det A): NaN where det A < 0, -inf where it is 0.
Tensor logdet(const Tensor& a);
// X with A X = B for A = L Lᵀ given L (A = Uᵀ U given U when `upper`).
Tensor cholesky_solve(const Tensor& b, const Tensor& l, bool upper = false);
// A⁻¹ for A = L Lᵀ given L (A = Uᵀ U given U when `upper`).
Tensor cholesky_inverse(const Tensor& l, bool upper = false);
// linalg::pinv with rtol = rcond.
Tensor pinverse(const Tensor& a, double rcond = 1e-15);

}  // namespace accel
