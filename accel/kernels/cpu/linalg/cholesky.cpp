// Cholesky factorization. Matrices of more than kSmallCholesky rows are factorized a block of
// columns at a time (right-looking): the diagonal block by Eigen's LLT, the panel below it by a
// triangular solve, both on column-major data (Eigen's triangular solves run several times faster
// on it), and the lower triangle of the rest updated by accel's GEMM, which threads a single large
// matrix and gives the same bits on any thread count. Smaller ones go to Eigen's LLT whole. When a
// matrix is not positive-definite, an unblocked pass over the original finds the order of the
// first leading minor that fails, which the op's error names (as LAPACK's potrf reports it).
#include <algorithm>
#include <cmath>

#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
#include "accel/kernels/cpu/linalg/subtract_product.h"

namespace accel::cpu {

using namespace linalg;

namespace {

// The order (1-based) of the first leading minor of `a`'s lower triangle that is not
// positive-definite, or 0 when every one is.
template <typename T>
int64_t first_failing_minor(const RowMajorMatrix<T>& a) {
  const int64_t n = a.rows();
  RowMajorMatrix<T> factor = RowMajorMatrix<T>::Zero(n, n);
  for (int64_t j = 0; j < n; ++j) {
    const T pivot = a(j, j) - factor.row(j).head(j).squaredNorm();
    if (!(pivot > T(0))) return j + 1;
    factor(j, j) = std::sqrt(pivot);
    for (int64_t i = j + 1; i < n; ++i) {
      factor(i, j) = (a(i, j) - factor.row(i).head(j).dot(factor.row(j).head(j))) / factor(j, j);
    }
  }
  return 0;
}

// Columns per block of the blocked factorization, and the largest order factorized whole.
constexpr int64_t kCholeskyBlock = 64, kSmallCholesky = 16;

// The lower triangle of `a` replaced by its Cholesky factor, block by block; false (a partly
// overwritten) where a pivot is not positive or not finite. Entries above the diagonal are left
// as they come out (the caller zeroes them).
template <typename T>
bool factorize_in_blocks(MatrixMap<T>& a) {
  const int64_t n = a.rows();
  for (int64_t k = 0; k < n; k += kCholeskyBlock) {
    const int64_t width = std::min(kCholeskyBlock, n - k), rest = n - k - width;
    auto diagonal = a.block(k, k, width, width);
    const Eigen::LLT<ColumnMajorMatrix<T>, Eigen::Lower> llt(diagonal);
    if (llt.info() != Eigen::Success || !llt.matrixLLT().diagonal().allFinite()) return false;
    diagonal = llt.matrixLLT();  // L below the diagonal (above it: zeroed at the end)
    if (rest == 0) break;
    // The panel P below becomes P · L11⁻ᵀ: as its transpose, column-major where it lies,
    // L11⁻¹ · Pᵀ.
    Eigen::Map<ColumnMajorMatrix<T>, 0, Eigen::OuterStride<>> panel_transposed(
        &a(k + width, k), width, rest, Eigen::OuterStride<>(n));
    llt.matrixL().solveInPlace(panel_transposed);
    // The trailing lower triangle less panel · panelᵀ, a block of rows at a time (each up to
    // its diagonal block).
    const T* rows_of_panel = &a(k + width, k);
    for (int64_t first = 0; first < rest; first += kCholeskyBlock) {
      const int64_t rows = std::min(kCholeskyBlock, rest - first), cols = first + rows;
      subtract_product(MatrixOperand{rows_of_panel + first * n, n, 1, {}},
                       MatrixOperand{rows_of_panel, 1, n, {}}, rows, width, cols,
                       &a(k + width + first, k + width), n);
    }
  }
  return true;
}

}  // namespace

void cholesky(ScalarType type, void* a, int64_t* failed_minor, int64_t batch, int64_t n) {
  dispatch_linalg(type, "cholesky", [&]<typename T>() {
    for_each_matrix(batch, n * n * n / 3, [&](int64_t i) {
      MatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      failed_minor[i] = 0;
      // LLT passes NaN pivots on; LAPACK's potrf stops at them, as here.
      if (n <= kSmallCholesky) {
        const Eigen::LLT<RowMajorMatrix<T>, Eigen::Lower> llt(matrix);
        if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().allFinite()) {
          matrix = llt.matrixL();
          return;
        }
      } else {
        const RowMajorMatrix<T> original = matrix;  // for the search of a failing minor
        if (factorize_in_blocks(matrix)) {
          for (int64_t r = 0; r < n; ++r) {  // row by row: a column walk was slow
            std::fill(&matrix(r, 0) + r + 1, &matrix(r, 0) + n, T(0));
          }
          return;
        }
        matrix = original;
      }
      const int64_t minor = first_failing_minor<T>(matrix);
      failed_minor[i] = minor > 0 ? minor : n;
    });
  });
}

}  // namespace accel::cpu
