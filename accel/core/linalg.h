// Linear algebra: torch.linalg's solves, inverses, determinants, factorizations (Cholesky, QR,
// symmetric eigen-decomposition, SVD), pseudo-inverse, rank, norms and matrix products, as
// accel::linalg::…, and the torch.… names for some of them (inverse, det, logdet, slogdet,
// cholesky_solve, cholesky_inverse, pinverse, matrix_power) in accel.
//
// Inputs are float32 or float64 matrices [..., m, n], batched over the leading dims (solves
// broadcast them). Every function is differentiable with PyTorch's formulas. The factorizations
// run on the CPU with Eigen; a CUDA tensor is factorized on the host (copied there and back, a
// synchronization), while the products around the factors — in the gradients too — run on the
// tensor's device. Failures are accel::Errors naming the op and the batch element: a singular
// matrix for inv and solve, a matrix that is not positive-definite for cholesky, non-finite input
// for eigh and svd.
#pragma once

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

// ---- triangular matrices and Cholesky (core/linalg/triangular.cpp) ----
// X with A X = B (X A = B when not `left`), reading only A's upper (or lower) triangle and not
// its diagonal when unitriangular (taken as ones).
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left = true,
                        bool unitriangular = false);
// L lower triangular with A = L Lᵀ (U upper with A = Uᵀ U when `upper`), for symmetric
// positive-definite A, of which only the lower triangle is read.
Tensor cholesky(const Tensor& a, bool upper = false);

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
inline Tensor cond(const Tensor& a, const char* p) { return cond(a, std::string_view(p)); }

// ---- norms (core/linalg/norms.cpp) ----
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
// (A string literal would otherwise convert to a Scalar through bool as readily.)
inline Tensor matrix_norm(const Tensor& a, const char* ord, IntArrayRef dim = {-2, -1},
                          bool keepdim = false) {
  return matrix_norm(a, std::string_view(ord), dim, keepdim);
}

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

// torch.inverse, torch.det, torch.slogdet, torch.matrix_power: linalg's.
Tensor inverse(const Tensor& a);
Tensor det(const Tensor& a);
std::tuple<Tensor, Tensor> slogdet(const Tensor& a);
Tensor matrix_power(const Tensor& a, int64_t n);
// log(det A): NaN where det A < 0, -inf where it is 0.
Tensor logdet(const Tensor& a);
// X with A X = B for A = L Lᵀ given L (A = Uᵀ U given U when `upper`).
Tensor cholesky_solve(const Tensor& b, const Tensor& l, bool upper = false);
// A⁻¹ for A = L Lᵀ given L (A = Uᵀ U given U when `upper`).
Tensor cholesky_inverse(const Tensor& l, bool upper = false);
// linalg::pinv with rtol = rcond.
Tensor pinverse(const Tensor& a, double rcond = 1e-15);

}  // namespace accel
