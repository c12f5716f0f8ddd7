// Symmetric eigen-decomposition on Eigen's SelfAdjointEigenSolver (tridiagonalization, then
// implicit symmetric QR steps); eigenvalues ascending, as LAPACK's syevd gives them.
#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

namespace accel::cpu {

using namespace linalg;

void eigh(ScalarType type, const void* a, void* eigenvalues, void* eigenvectors, bool* converged,
          int64_t batch, int64_t n, bool upper) {
  dispatch_linalg(type, "eigh", [&]<typename T>() {
    for_each_matrix(batch, 4 * n * n * n, [&](int64_t i) {
      using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
      const ConstMatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      // The solver reads the lower triangle; Aᵀ's lower triangle is A's upper one.
      const Matrix input = upper ? Matrix(matrix.transpose()) : column_major<T>(matrix);
      const int options = eigenvectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly;
      const Eigen::SelfAdjointEigenSolver<Matrix> solver(input, options);
      converged[i] = solver.info() == Eigen::Success;
      VectorMap<T>(static_cast<T*>(eigenvalues) + i * n, n) = solver.eigenvalues();
      if (eigenvectors) copy_to(solver.eigenvectors(), matrix_at<T>(eigenvectors, i, n, n));
    });
  });
}

}  // namespace accel::cpu
