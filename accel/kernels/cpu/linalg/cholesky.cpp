// Cholesky factorization on Eigen's blocked LLT. When a matrix is not positive-definite, an
// unblocked pass over it finds the order of the first leading minor that fails, which the op's
// error names (as LAPACK's potrf reports it).
#include <cmath>

#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

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

}  // namespace

void cholesky(ScalarType type, void* a, int64_t* failed_minor, int64_t batch, int64_t n) {
  dispatch_linalg(type, "cholesky", [&]<typename T>() {
    for_each_matrix(batch, n * n * n / 3, [&](int64_t i) {
      MatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      const Eigen::LLT<RowMajorMatrix<T>, Eigen::Lower> llt(matrix);
      failed_minor[i] = 0;
      // LLT passes NaN pivots on; LAPACK's potrf stops at them, as here.
      if (llt.info() != Eigen::Success || !llt.matrixLLT().diagonal().allFinite()) {
        const int64_t minor = first_failing_minor<T>(matrix);
        failed_minor[i] = minor > 0 ? minor : n;
        return;
      }
      matrix = llt.matrixL();
    });
  });
}

}  // namespace accel::cpu
