// Triangular solves, op(A)⁻¹ b, on Eigen's blocked triangular solver.
#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

namespace accel::cpu {

using namespace linalg;

namespace {

// Solves with the triangle `Mode` of `matrix` (A or Aᵀ) in place of rhs.
template <unsigned Mode, typename Matrix, typename Rhs>
void solve_with(const Matrix& matrix, Rhs& rhs) {
  matrix.template triangularView<Mode>().solveInPlace(rhs);
}

template <typename Matrix, typename Rhs>
void solve_triangle(const Matrix& matrix, Rhs& rhs, bool upper, bool unit_diagonal) {
  if (upper) {
    unit_diagonal ? solve_with<Eigen::UnitUpper>(matrix, rhs)
                  : solve_with<Eigen::Upper>(matrix, rhs);
  } else {
    unit_diagonal ? solve_with<Eigen::UnitLower>(matrix, rhs)
                  : solve_with<Eigen::Lower>(matrix, rhs);
  }
}

}  // namespace

void triangular_solve(ScalarType type, const void* a, void* b, MatrixBatch shape, bool upper,
                      bool transpose, bool unit_diagonal) {
  const int64_t n = shape.rows, k = shape.cols;
  dispatch_linalg(type, "solve_triangular", [&]<typename T>() {
    for_each_matrix(shape.batch, n * n * k, [&](int64_t i) {
      const ConstMatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      MatrixMap<T> rhs = matrix_at<T>(b, i, n, k);
      // Aᵀ's upper triangle is A's lower one.
      if (transpose) {
        solve_triangle(matrix.transpose(), rhs, !upper, unit_diagonal);
      } else {
        solve_triangle(matrix, rhs, upper, unit_diagonal);
      }
    });
  });
}

}  // namespace accel::cpu
