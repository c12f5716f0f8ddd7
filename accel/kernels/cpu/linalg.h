// CPU matrix factorizations and solves, for core/linalg's ops: LU, Cholesky and triangular solves
// of accel's own, blocked over its GEMM; QR, the symmetric eigensolver and SVD on Eigen. Every
// array is a contiguous batch of row-major matrices of float32 or float64 (`type`); the matrices
// of a batch are spread over threads, each factorized on one thread, and a single large one is
// threaded inside its products, so results are the same for any thread count. Devices without
// kernels of their own run these on the host (core/linalg/host_staging.h).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"

namespace accel::cpu {

// Shapes of a batch of matrices.
struct MatrixBatch {
  int64_t batch;
  int64_t rows;
  int64_t cols;
};

// LU factorization with partial pivoting, in place: a [batch, n, n] becomes L (unit diagonal,
// below it) and U (on and above it) with P A = L U. pivots [batch, n] are LAPACK's: row i was
// swapped with row pivots[i] - 1, for i = 0, 1, ... in turn. A zero pivot leaves its column of L
// unscaled and U singular: info[b] is the 1-based position of U's first zero diagonal element,
// or 0 (LAPACK's getrf info).
void lu_factor(ScalarType type, void* a, int32_t* pivots, int32_t* info, int64_t batch, int64_t n);

// rows [batch, n] = the order of the rows after lu_factor's swaps: row i of P A is row rows[i] of
// A (P A = L U).
void lu_row_order(const int32_t* pivots, int64_t* rows, int64_t batch, int64_t n);

// b [batch, n, k] becomes A⁻¹ b (Aᵀ⁻¹ b when `transpose`), from lu_factor's factors of A.
void lu_solve(ScalarType type, const void* lu, const int32_t* pivots, void* b, MatrixBatch shape,
              bool transpose);

// b [batch, n, k] becomes op(A)⁻¹ b for a triangular A [batch, n, n] (upper or lower; the other
// triangle is never read, nor the diagonal when unit_diagonal), op(A) = Aᵀ when `transpose`.
void triangular_solve(ScalarType type, const void* a, void* b, MatrixBatch shape, bool upper,
                      bool transpose, bool unit_diagonal);

// Cholesky factorization, in place: a [batch, n, n] (only its lower triangle read) becomes L,
// lower triangular with A = L Lᵀ, zeros above the diagonal. failed_minor[b] is 0, or the order
// of the first leading minor of matrix b that is not positive-definite (its factor is then
// unspecified).
void cholesky(ScalarType type, void* a, int64_t* failed_minor, int64_t batch, int64_t n);

// Householder QR of a [batch, m, n]: r [batch, k, n] upper trapezoidal and, unless q is null,
// q [batch, m, k] with orthonormal columns, A = Q R; k = min(m, n), or m when `complete`.
void qr(ScalarType type, const void* a, void* q, void* r, MatrixBatch shape, bool complete);

// Eigen-decomposition of symmetric matrices a [batch, n, n], of which only the lower triangle is
// read (the upper when `upper`): eigenvalues [batch, n] ascending and, unless null, eigenvectors
// [batch, n, n] (unit columns, column j for eigenvalue j). converged[b] is false where the
// iteration failed (non-finite input).
void eigh(ScalarType type, const void* a, void* eigenvalues, void* eigenvectors, bool* converged,
          int64_t batch, int64_t n, bool upper);

// Singular value decomposition of a [batch, m, n]: s [batch, k] descending, k = min(m, n), and,
// unless u and vh are null, u [batch, m, k] and vh [batch, k, n] with A = U diag(s) Vh (u [batch,
// m, m] and vh [batch, n, n] when `full_matrices`). converged[b] as for eigh.
void svd(ScalarType type, const void* a, void* u, void* s, void* vh, bool* converged,
         MatrixBatch shape, bool full_matrices);

// out [batch, n, n] = exp(A) for a [batch, n, n]: scaling and squaring with a Padé approximant
// (the method of PyTorch's and SciPy's expm).
void matrix_exp(ScalarType type, const void* a, void* out, int64_t batch, int64_t n);

}  // namespace accel::cpu
