// LU factorization with partial pivoting and the solves from its factors. Matrices up to
// kSmallLu rows are factorized in place by the unblocked algorithm (LAPACK's getf2), which
// allocates nothing: batches of small matrices are mostly bookkeeping otherwise. Larger ones go
// to Eigen's blocked PartialPivLU, which keeps the row order as a permutation; the factors are
// handed out with LAPACK's pivots (the row swaps in turn) either way, as PyTorch's lu_factor.
#include <cmath>
#include <numeric>
#include <vector>

#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
#include "accel/kernels/cpu/linalg/solve_in_blocks.h"

namespace accel::cpu {

using namespace linalg;

namespace {

constexpr int64_t kSmallLu = 16;

template <typename T>
void unblocked_lu(MatrixMap<T>& a, int32_t* pivots) {
  const int64_t n = a.rows();
  for (int64_t k = 0; k < n; ++k) {
    int64_t pivot_row = k;
    for (int64_t i = k + 1; i < n; ++i) {
      if (std::abs(a(i, k)) > std::abs(a(pivot_row, k))) pivot_row = i;
    }
    pivots[k] = static_cast<int32_t>(pivot_row + 1);
    if (pivot_row != k) a.row(k).swap(a.row(pivot_row));
    const T pivot = a(k, k);
    if (pivot == T(0)) continue;
    for (int64_t i = k + 1; i < n; ++i) {
      const T factor = a(i, k) /= pivot;
      for (int64_t j = k + 1; j < n; ++j) a(i, j) -= factor * a(k, j);
    }
  }
}

template <typename T>
void apply_pivots(MatrixMap<T>& b, const int32_t* pivots, int64_t n, bool reverse) {
  for (int64_t s = 0; s < n; ++s) {
    const int64_t i = reverse ? n - 1 - s : s;
    if (pivots[i] - 1 != i) b.row(i).swap(b.row(pivots[i] - 1));
  }
}

// b = A⁻¹ b (A⁻ᵀ b when transposed) by substitution, row by row of b, for the small factors
// unblocked_lu makes (Eigen's triangular solver sets up blocking per call).
template <typename T>
void substitute(const ConstMatrixMap<T>& lu, const int32_t* pivots, MatrixMap<T>& b,
                bool transpose) {
  const int64_t n = lu.rows();
  if (!transpose) {
    apply_pivots(b, pivots, n, false);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < i; ++j) b.row(i) -= lu(i, j) * b.row(j);
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      for (int64_t j = i + 1; j < n; ++j) b.row(i) -= lu(i, j) * b.row(j);
      b.row(i) /= lu(i, i);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < i; ++j) b.row(i) -= lu(j, i) * b.row(j);
    b.row(i) /= lu(i, i);
  }
  for (int64_t i = n - 1; i >= 0; --i) {
    for (int64_t j = i + 1; j < n; ++j) b.row(i) -= lu(j, i) * b.row(j);
  }
  apply_pivots(b, pivots, n, true);
}

// The swaps that bring the rows into the order P A: source_row[i] is the row of A that lands in
// row i. Row i is swapped with the row now holding source_row[i] (never above i).
void pivots_from_order(const int* source_row, int32_t* pivots, int64_t n) {
  std::vector<int64_t> row_at(n), position_of(n);
  std::iota(row_at.begin(), row_at.end(), 0);
  std::iota(position_of.begin(), position_of.end(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = position_of[source_row[i]];
    pivots[i] = static_cast<int32_t>(j + 1);
    std::swap(row_at[i], row_at[j]);
    position_of[row_at[i]] = i;
    position_of[row_at[j]] = j;
  }
}

// P A = L U in place, by the unblocked algorithm for small matrices, else Eigen's blocked one.
template <typename T>
void factorize(MatrixMap<T>& matrix, int32_t* pivots) {
  const int64_t n = matrix.rows();
  if (n <= kSmallLu) return unblocked_lu(matrix, pivots);
  const Eigen::PartialPivLU<RowMajorMatrix<T>> lu(matrix);
  matrix = lu.matrixLU();
  // permutationP maps row r of A to row indices[r] of P A; invert it.
  const auto& indices = lu.permutationP().indices();
  std::vector<int> source_row(n);
  for (int64_t r = 0; r < n; ++r) source_row[indices[r]] = static_cast<int>(r);
  pivots_from_order(source_row.data(), pivots, n);
}

}  // namespace

void lu_factor(ScalarType type, void* a, int32_t* pivots, int32_t* info, int64_t batch, int64_t n) {
  dispatch_linalg(type, "lu_factor", [&]<typename T>() {
    for_each_matrix(batch, n * n * n, [&](int64_t i) {
      MatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      factorize(matrix, pivots + i * n);
      info[i] = 0;
      for (int64_t j = 0; j < n && info[i] == 0; ++j) {
        if (matrix(j, j) == T(0)) info[i] = static_cast<int32_t>(j + 1);
      }
    });
  });
}

void lu_row_order(const int32_t* pivots, int64_t* rows, int64_t batch, int64_t n) {
  for (int64_t b = 0; b < batch; ++b) {
    int64_t* order = rows + b * n;
    std::iota(order, order + n, 0);
    for (int64_t i = 0; i < n; ++i) std::swap(order[i], order[pivots[b * n + i] - 1]);
  }
}

void lu_solve(ScalarType type, const void* lu, const int32_t* pivots, void* b, MatrixBatch shape,
              bool transpose) {
  const int64_t n = shape.rows, k = shape.cols;
  dispatch_linalg(type, "lu_solve", [&]<typename T>() {
    for_each_matrix(shape.batch, n * n * k, [&](int64_t i) {
      const ConstMatrixMap<T> factors = matrix_at<T>(lu, i, n, n);
      MatrixMap<T> rhs = matrix_at<T>(b, i, n, k);
      const int32_t* swaps = pivots + i * n;
      if (n <= kSmallLu) return substitute(factors, swaps, rhs, transpose);
      auto solve = [&](bool lower, bool unit_diagonal) {
        solve_in_blocks<T>({factors.data(), n, n, transpose, lower, unit_diagonal}, rhs.data(), k,
                           k);
      };
      if (!transpose) {
        // A = Pᵀ L U: x = U⁻¹ L⁻¹ P b.
        apply_pivots(rhs, swaps, n, false);
        solve(true, true);
        solve(false, false);
      } else {
        // Aᵀ = Uᵀ Lᵀ P: x = Pᵀ L⁻ᵀ U⁻ᵀ b.
        solve(true, false);
        solve(false, true);
        apply_pivots(rhs, swaps, n, true);
      }
    });
  });
}

}  // namespace accel::cpu
