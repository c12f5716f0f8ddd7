// Householder QR on Eigen's blocked HouseholderQR, whose reflectors follow LAPACK's geqrf sign
// convention (R's diagonal takes the opposite sign of the column's leading element). The
// matrix is factorized in place in a column-major copy, and Q formed column-major, both in room
// the thread keeps.
#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

namespace accel::cpu {

using namespace linalg;

void qr(ScalarType type, const void* a, void* q, void* r, MatrixBatch shape, bool complete) {
  const int64_t m = shape.rows, n = shape.cols;
  const int64_t k = complete ? m : std::min(m, n);
  dispatch_linalg(type, "qr", [&]<typename T>() {
    for_each_matrix(shape.batch, m * n * std::min(m, n), [&](int64_t i) {
      const Scratch<T, ScratchUse::Factors> factors(m * n);
      Eigen::Map<ColumnMajorMatrix<T>> columns(factors.data(), m, n);
      simd::transpose(matrix_at<T>(a, i, m, n).data(), m, n, n, columns.data(), m);
      const Eigen::HouseholderQR<Eigen::Ref<ColumnMajorMatrix<T>>> qr(columns);
      MatrixMap<T> r_out = matrix_at<T>(r, i, k, n);
      r_out.setZero();
      const int64_t r_rows = std::min(k, m);
      r_out.topRows(r_rows) = qr.matrixQR().topRows(r_rows).template triangularView<Eigen::Upper>();
      if (q == nullptr) return;
      // Formed column-major, as Eigen applies reflectors fastest, then copied out.
      const Scratch<T, ScratchUse::Formed> formed(m * k);
      Eigen::Map<ColumnMajorMatrix<T>> q_columns(formed.data(), m, k);
      q_columns.setIdentity();
      q_columns.applyOnTheLeft(qr.householderQ());
      copy_to(q_columns, matrix_at<T>(q, i, m, k));
    });
  });
}

}  // namespace accel::cpu
