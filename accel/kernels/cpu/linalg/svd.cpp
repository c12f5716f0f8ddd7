// Singular value decomposition on Eigen's BDCSVD (bidiagonalization, then divide and conquer,
// as LAPACK's gesdd that PyTorch calls; small matrices go to one-sided Jacobi inside it).
#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

namespace accel::cpu {

using namespace linalg;

void svd(ScalarType type, const void* a, void* u, void* s, void* vh, bool* converged,
         MatrixBatch shape, bool full_matrices) {
  const int64_t m = shape.rows, n = shape.cols, k = std::min(m, n);
  const bool vectors = u != nullptr;
  const int64_t u_cols = full_matrices ? m : k, vh_rows = full_matrices ? n : k;
  int options = 0;
  if (vectors) {
    options = full_matrices ? Eigen::ComputeFullU | Eigen::ComputeFullV
                            : Eigen::ComputeThinU | Eigen::ComputeThinV;
  }
  dispatch_linalg(type, "svd", [&]<typename T>() {
    for_each_matrix(shape.batch, 8 * m * n * k, [&](int64_t i) {
      using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
      converged[i] = true;
      if (k == 0) {  // no singular values; full factors are any orthogonal matrices
        if (vectors) {
          matrix_at<T>(u, i, m, u_cols).setIdentity();
          matrix_at<T>(vh, i, vh_rows, n).setIdentity();
        }
        return;
      }
      const Eigen::BDCSVD<Matrix> svd(column_major<T>(matrix_at<T>(a, i, m, n)), options);
      converged[i] = svd.info() == Eigen::Success;
      VectorMap<T>(static_cast<T*>(s) + i * k, k) = svd.singularValues();
      if (!vectors) return;
      copy_to(svd.matrixU(), matrix_at<T>(u, i, m, u_cols));
      matrix_at<T>(vh, i, vh_rows, n) = svd.matrixV().transpose();  // the same memory order
    });
  });
}

}  // namespace accel::cpu
