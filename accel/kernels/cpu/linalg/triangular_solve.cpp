// Triangular solves, op(A)⁻¹ b: small systems whole by Eigen's triangular solver, larger ones a
// block of rows at a time (solve_in_blocks.h).
#include <algorithm>
#include <type_traits>

#include "accel/kernels/cpu/linalg.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
#include "accel/kernels/cpu/linalg/solve_in_blocks.h"
#include "accel/kernels/cpu/linalg/subtract_product.h"

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

// Rows per block of solve_in_blocks; systems of at most this order are solved whole.
constexpr int64_t kSolveBlock = 64;
// Columns of the right-hand side solved apart, each part by one thread (a product's threads
// cost more than they gain on blocks this small): a part's result does not depend on which
// thread solves it, or on how many there are.
constexpr int64_t kSolveColumns = 128;

// One diagonal block of op(A): element (i, j) of the block at row and column `first`.
template <typename T>
struct DiagonalBlock {
  const linalg::Triangle<T>& t;
  int64_t first;
  T operator()(int64_t i, int64_t j) const {
    return t.transpose ? t.a[(first + j) * t.lda + first + i]
                       : t.a[(first + i) * t.lda + first + j];
  }
};

// A chunk of a row: one vector (Lanes = simd::Vector<T>) or one element (Lanes = T).
template <typename Lanes, typename T>
Lanes load_chunk(const T* p) {
  if constexpr (std::is_same_v<Lanes, T>) {
    return *p;
  } else {
    return simd::load(p);
  }
}
template <typename Lanes, typename T>
void store_chunk(T* p, const Lanes& v) {
  if constexpr (std::is_same_v<Lanes, T>) {
    *p = v;
  } else {
    simd::store(p, v);
  }
}

// Columns [column, column + Count lanes) of the block's rows of b (row stride ldb) solved by
// substitution, row after row in the triangle's order: a row's lanes stay in registers while
// the rows solved before it are subtracted. (Eigen's triangular solver on row-major
// right-hand sides took half of a blocked solve's time on a quarter of its work.)
template <typename T, typename Lanes, int64_t Count>
void substitute_lanes(const DiagonalBlock<T>& d, int64_t rows, T* b, int64_t ldb) {
  constexpr int64_t kStep = sizeof(Lanes) / sizeof(T);
  const bool lower = d.t.lower;
  for (int64_t s = 0; s < rows; ++s) {
    const int64_t i = lower ? s : rows - 1 - s;
    Lanes row[Count];
    for (int64_t v = 0; v < Count; ++v) row[v] = load_chunk<Lanes>(b + i * ldb + v * kStep);
    const int64_t solved_begin = lower ? 0 : i + 1, solved_end = lower ? i : rows;
    for (int64_t j = solved_begin; j < solved_end; ++j) {
      const T factor = d(i, j);
      for (int64_t v = 0; v < Count; ++v) {
        row[v] -= factor * load_chunk<Lanes>(b + j * ldb + v * kStep);
      }
    }
    if (!d.t.unit_diagonal) {
      const T pivot = d(i, i);
      for (int64_t v = 0; v < Count; ++v) row[v] /= pivot;
    }
    for (int64_t v = 0; v < Count; ++v) store_chunk(b + i * ldb + v * kStep, row[v]);
  }
}

// All k columns of the block's rows: four vectors at a time, then one, then single elements.
template <typename T>
void substitute_block(const DiagonalBlock<T>& d, int64_t rows, T* b, int64_t k, int64_t ldb) {
  constexpr int64_t L = simd::kLanes<T>;
  int64_t c = 0;
  for (; c + 4 * L <= k; c += 4 * L) substitute_lanes<T, simd::Vector<T>, 4>(d, rows, b + c, ldb);
  for (; c + L <= k; c += L) substitute_lanes<T, simd::Vector<T>, 1>(d, rows, b + c, ldb);
  for (; c < k; ++c) substitute_lanes<T, T, 1>(d, rows, b + c, ldb);
}

}  // namespace

namespace linalg {

namespace {

// solve_in_blocks for k columns of b.
template <typename T>
void solve_columns(const Triangle<T>& t, T* b, int64_t k, int64_t ldb) {
  const int64_t n = t.n;
  // op(A)'s block at row r and column c, for the GEMM.
  auto operand = [&](int64_t r, int64_t c) {
    return t.transpose ? MatrixOperand{t.a + c * t.lda + r, 1, t.lda, {}}
                       : MatrixOperand{t.a + r * t.lda + c, t.lda, 1, {}};
  };
  const int64_t blocks = (n + kSolveBlock - 1) / kSolveBlock;
  for (int64_t step = 0; step < blocks; ++step) {
    // Down the rows for a lower triangle, up them for an upper one.
    const int64_t block = t.lower ? step : blocks - 1 - step;
    const int64_t first = block * kSolveBlock, rows = std::min(kSolveBlock, n - first);
    substitute_block(DiagonalBlock<T>{t, first}, rows, b + first * ldb, k, ldb);
    // The rows still to solve less op(A)'s block beside them times the rows just solved.
    const int64_t rest_first = t.lower ? first + rows : 0, rest = t.lower ? n - rest_first : first;
    if (rest == 0) continue;
    subtract_product(operand(rest_first, first), MatrixOperand{b + first * ldb, ldb, 1, {}}, rest,
                     rows, k, b + rest_first * ldb, ldb);
  }
}

}  // namespace

template <typename T>
void solve_in_blocks(const Triangle<T>& t, T* b, int64_t k, int64_t ldb) {
  const int64_t parts = (k + kSolveColumns - 1) / kSolveColumns;
  parallel_for(0, parts, 1, [&](int64_t begin, int64_t end) {
    for (int64_t part = begin; part < end; ++part) {
      const int64_t first = part * kSolveColumns;
      solve_columns(t, b + first, std::min(kSolveColumns, k - first), ldb);
    }
  });
}

template void solve_in_blocks(const Triangle<float>&, float*, int64_t, int64_t);
template void solve_in_blocks(const Triangle<double>&, double*, int64_t, int64_t);

}  // namespace linalg

void triangular_solve(ScalarType type, const void* a, void* b, MatrixBatch shape, bool upper,
                      bool transpose, bool unit_diagonal) {
  const int64_t n = shape.rows, k = shape.cols;
  dispatch_linalg(type, "solve_triangular", [&]<typename T>() {
    for_each_matrix(shape.batch, n * n * k, [&](int64_t i) {
      const ConstMatrixMap<T> matrix = matrix_at<T>(a, i, n, n);
      MatrixMap<T> rhs = matrix_at<T>(b, i, n, k);
      if (n > kSolveBlock) {
        return solve_in_blocks<T>(
            {matrix.data(), n, n, transpose, transpose == upper, unit_diagonal}, rhs.data(), k, k);
      }
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
