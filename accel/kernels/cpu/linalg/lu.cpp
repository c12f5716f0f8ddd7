// LU factorization with partial pivoting and the solves from its factors. Matrices are
// factorized in place a block of kLuBlock columns at a time, right-looking, as LAPACK's getrf:
// the panel by the unblocked algorithm (getf2) on a column-major copy, its row swaps then
// applied across the rest of the rows, the rows right of it solved by the panel's unit lower
// triangle and the rest updated by accel's GEMM (which threads one large matrix and gives the
// same bits on any thread count). Small matrices are factorized as they lie, which allocates
// nothing: batches of them are mostly bookkeeping. The pivots are LAPACK's (the row swaps in
// turn), as PyTorch's lu_factor.
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
#include "accel/kernels/cpu/linalg/solve_in_blocks.h"
#include "accel/kernels/cpu/linalg/subtract_product.h"

namespace accel::cpu {

using namespace linalg;

namespace {

// Columns of a panel; matrices of at most kSmallLu rows are factorized, and solved from, as
// they lie.
constexpr int64_t kLuBlock = 64, kSmallLu = 16;

// The row of column[from, rows) whose element has the largest magnitude, the first of several,
// NaNs passed over (no magnitude exceeds one), unless column[from] is one (none exceeds it):
// LAPACK's pivot. The largest magnitude is taken in vector lanes (a running index is a chain
// the loop waits on), then its first row.
template <typename T>
int64_t pivot_of(const T* column, int64_t from, int64_t rows) {
  using simd::Vector;
  constexpr int64_t L = simd::kLanes<T>;
  T largest = std::abs(column[from]);
  if (std::isnan(largest)) return from;
  using Bits = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  const simd::LaneMask<T> magnitude_bits = simd::LaneMask<T>{} + std::numeric_limits<Bits>::max();
  Vector<T> lanes_largest = Vector<T>{} + largest;
  int64_t i = from + 1;
  for (; i + L <= rows; i += L) {
    const Vector<T> magnitude = simd::keep_lanes<T>(simd::load(column + i), magnitude_bits);
    lanes_largest = magnitude > lanes_largest ? magnitude : lanes_largest;
  }
  for (int64_t l = 0; l < L; ++l) largest = lanes_largest[l] > largest ? lanes_largest[l] : largest;
  for (; i < rows; ++i) largest = std::abs(column[i]) > largest ? std::abs(column[i]) : largest;
  int64_t row = from;
  while (std::abs(column[row]) != largest) ++row;
  return row;
}

// Columns of a panel factorized together before the columns right of them are updated.
constexpr int64_t kSubPanel = 8;

// to[0, n) -= factor * from[0, n), in 64-byte vectors (the compiler's own loop used 32-byte
// ones).
template <typename T>
void subtract_multiple(T factor, const T* from, T* to, int64_t n) {
  constexpr int64_t L = simd::kLanes<T>;
  int64_t i = 0;
  for (; i + L <= n; i += L)
    simd::store(to + i, simd::load(to + i) - factor * simd::load(from + i));
  for (; i < n; ++i) to[i] -= factor * from[i];
}

// Column `column` of a panel (column-major, columns `rows` apart) updated by the factored
// columns [first, last): its rows among them by forward substitution with their unit lower
// triangle, the rows below less those columns times the rows above. Each element subtracts the
// columns in order, as one rank-1 update after another would, but is loaded and stored once.
template <typename T>
void update_by_columns(T* panel, int64_t rows, int64_t first, int64_t last, T* column) {
  for (int64_t t = first; t < last; ++t) {
    for (int64_t s = first; s < t; ++s) column[t] -= panel[s * rows + t] * column[s];
  }
  constexpr int64_t L = simd::kLanes<T>;
  int64_t i = last;
  for (; i + L <= rows; i += L) {
    simd::Vector<T> element = simd::load(column + i);
    for (int64_t t = first; t < last; ++t) element -= column[t] * simd::load(panel + t * rows + i);
    simd::store(column + i, element);
  }
  for (; i < rows; ++i) {
    for (int64_t t = first; t < last; ++t) column[i] -= column[t] * panel[t * rows + i];
  }
}

// A panel (rows x width, column-major, columns `rows` apart) factorized by the unblocked
// algorithm: column j's pivot is the first of largest magnitude on or below the diagonal, whose
// row (relative) goes into swaps[j] and trades places with row j across the panel. Column-major,
// the pivot search and the updates run along whole contiguous columns (row-major, they ran
// along rows of at most a panel's width, or down a column with a stride). The updates go
// kSubPanel columns at a time (left-looking): rank-1 updates stored every column once per
// pivot, and were most of the panel's time.
template <typename T>
void factorize_panel(T* panel, int64_t rows, int64_t width, int64_t* swaps) {
  for (int64_t first = 0; first < width; first += kSubPanel) {
    const int64_t last = std::min(first + kSubPanel, width);
    for (int64_t j = first; j < last; ++j) {
      T* column = panel + j * rows;
      const int64_t pivot_row = pivot_of(column, j, rows);
      swaps[j] = pivot_row;
      if (pivot_row != j) {
        for (int64_t c = 0; c < width; ++c) {
          std::swap(panel[c * rows + j], panel[c * rows + pivot_row]);
        }
      }
      const T pivot = column[j];
      if (pivot == T(0)) continue;
      for (int64_t i = j + 1; i < rows; ++i) column[i] /= pivot;
      for (int64_t c = j + 1; c < last; ++c) {
        T* other = panel + c * rows;
        subtract_multiple(other[j], column + j + 1, other + j + 1, rows - j - 1);
      }
    }
    for (int64_t c = last; c < width; ++c)
      update_by_columns(panel, rows, first, last, panel + c * rows);
  }
}

// P A = L U in place by the unblocked algorithm as the matrix lies, row-major: for matrices of
// at most kSmallLu rows, where copying a panel out and back would cost more than it saves.
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

// P A = L U in place, a panel of kLuBlock columns at a time.
template <typename T>
void factorize(MatrixMap<T>& a, int32_t* pivots) {
  const int64_t n = a.rows();
  if (n <= kSmallLu) return unblocked_lu(a, pivots);
  const Scratch<T, ScratchUse::Panel> room(n * kLuBlock);
  int64_t swaps[kLuBlock];
  for (int64_t k = 0; k < n; k += kLuBlock) {
    const int64_t right = std::min(k + kLuBlock, n), width = right - k, rows = n - k;
    T* panel = room.data();
    simd::transpose(&a(k, k), rows, width, n, panel, rows);
    factorize_panel(panel, rows, width, swaps);
    simd::transpose(panel, width, rows, rows, &a(k, k), n);
    // The same swaps across the rest of the rows: the factors left of the panel, the columns
    // right of it.
    for (int64_t j = 0; j < width; ++j) {
      const int64_t row = k + j, pivot_row = k + swaps[j];
      pivots[row] = static_cast<int32_t>(pivot_row + 1);
      if (pivot_row == row) continue;
      a.row(row).head(k).swap(a.row(pivot_row).head(k));
      a.row(row).tail(n - right).swap(a.row(pivot_row).tail(n - right));
    }
    const int64_t rest = n - right;
    if (rest == 0) break;
    // The panel's rows right of it: U12 = L11⁻¹ A12; the rows below: A22 -= L21 U12.
    solve_in_blocks<T>({&a(k, k), width, n, false, true, true}, &a(k, right), rest, n);
    subtract_product(MatrixOperand{&a(right, k), n, 1, {}}, MatrixOperand{&a(k, right), n, 1, {}},
                     rest, width, rest, &a(right, right), n);
  }
}

template <typename T>
void apply_pivots(MatrixMap<T>& b, const int32_t* pivots, int64_t n, bool reverse) {
  for (int64_t s = 0; s < n; ++s) {
    const int64_t i = reverse ? n - 1 - s : s;
    if (pivots[i] - 1 != i) b.row(i).swap(b.row(pivots[i] - 1));
  }
}

// b = A⁻¹ b (A⁻ᵀ b when transposed) by substitution, row by row of b, for factors of at most
// kSmallLu rows (a triangular solver sets up blocking per call).
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
