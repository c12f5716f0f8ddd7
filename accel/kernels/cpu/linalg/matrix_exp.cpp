// The matrix exponential on Eigen's MatrixFunctions module (Higham's scaling and squaring with
// a Padé approximant of degree 3 to 13 chosen from the matrix's 1-norm).
#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
// After Eigen/Dense (eigen_matrix.h): the module extends its matrices.
#include <unsupported/Eigen/MatrixFunctions>

namespace accel::cpu {

using namespace linalg;

void matrix_exp(ScalarType type, const void* a, void* out, int64_t batch, int64_t n) {
  dispatch_linalg(type, "matrix_exp", [&]<typename T>() {
    for_each_matrix(batch, 8 * n * n * n, [&](int64_t i) {
      using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
      const Matrix matrix = matrix_at<T>(a, i, n, n);
      matrix_at<T>(out, i, n, n) = matrix.exp();
    });
  });
}

}  // namespace accel::cpu
