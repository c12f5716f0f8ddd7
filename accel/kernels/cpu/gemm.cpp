// CPU matrix products. float32 and float64 go through accel's own kernels where the layouts
// suit them — packed_gemm when the right operand's rows are unit-stride, or when both operands
// run along the depth in memory (x · Wᵀ) and there are rows enough to repay transposing the
// right one into panels (transposes_right); row_dot_gemm for that layout otherwise — and everything
// else (integer dtypes, two transposed operands, products under eight rows) through Eigen's GEMM,
// the only translation unit that includes Eigen. Operands are read in place, whether row-major or
// transposed (column-major). Every kernel call runs on one thread: a large product is cut into
// output tiles and threads take whole tiles (batches of small products are spread the same way,
// one product per task). Results are bit-identical whatever the thread count set: Eigen's tiles
// depend only on the shape and the machine's core count, and accel's kernels give an element the
// same bits in whatever tile it falls (see TileLimits).
#include "accel/kernels/cpu/gemm.h"

// GCC 12 flags Eigen's AVX-512 reductions (an intrinsic's deliberately undefined register)
// as maybe-uninitialized at every instantiation; the warning is about Eigen, not this file.
// Clang has no such warning (and would warn about the unknown name).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/eigen_threads.h"
#include "accel/kernels/cpu/packed_gemm.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/row_dot_gemm.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

namespace {

// Multiply-adds below which a product stays whole on one thread (starting threads costs more).
constexpr int64_t kGemmGrain = int64_t{1} << 18;
// Multiply-adds per tile at least. An Eigen tile is one Eigen call, which re-packs operands and
// costs ~9 us more than sharing a call (a [32,784]x[784,128] product cut in two ran 12%
// slower on one thread), so a tile must be worth well over that. accel's kernels re-pack little
// (row_dot_gemm nothing): a tile need only outweigh handing it to another thread.
constexpr int64_t kMinEigenTileWork = int64_t{1} << 23;
constexpr int64_t kMinOwnTileWork = int64_t{1} << 20;

// How a product's [m, n] output is cut: row_tiles x col_tiles tiles of near-equal size.
struct Tiling {
  int64_t row_tiles = 1, col_tiles = 1;
};

// How many tiles a product may be cut into: at most `threads`, each worth `min_work`.
//
// Eigen's result for an element depends on the tile it falls in, so its tiles follow the
// machine's core count: every thread count up to the default gets an even share, and the same
// bits. accel's kernels compute an element the same way in any tile, so their tiles follow the
// thread count set (one thread packs each operand once).
struct TileLimits {
  int threads;
  int64_t min_work;
};

// As many tiles as the limits allow. Among the splits giving that many, the one that re-packs
// least: a tile packs the left operand's rows once per column tile and the right operand's
// columns once per row tile, so a split costs col_tiles * m + row_tiles * n packed rows/columns
// of depth k.
Tiling tiling_for(int64_t m, int64_t n, int64_t k, TileLimits limits) {
  const int64_t wanted = std::clamp<int64_t>(m * n * k / limits.min_work, 1, limits.threads);
  Tiling best;
  int64_t best_cost = -1;
  for (int64_t rows = 1; rows <= std::min(wanted, m); ++rows) {
    const int64_t cols = (wanted + rows - 1) / rows;
    if (cols > n) continue;
    const int64_t cost = cols * m + rows * n;
    if (best_cost < 0 || cost < best_cost) {
      best = {rows, cols};
      best_cost = cost;
    }
  }
  return best;
}

template <typename T, int Order>
using MatrixMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Order>,
                             Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T>
using OutputMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// How one operand is mapped: its Eigen storage order and the stride between its outer
// vectors (rows for row-major, columns for column-major).
struct Layout {
  int order;
  int64_t outer_stride;
};

Layout layout_of(int64_t rows, int64_t cols, const MatrixOperand& op) {
  if (is_row_major(rows, cols, op.row_stride, op.col_stride)) {
    return {Eigen::RowMajor, rows <= 1 ? std::max<int64_t>(cols, 1) : op.row_stride};
  }
  return {Eigen::ColMajor, cols <= 1 ? std::max<int64_t>(rows, 1) : op.col_stride};
}

// Element offset of batch entry `index` (row-major over `sizes`) for an operand's strides.
int64_t batch_offset(int64_t index, IntArrayRef sizes, IntArrayRef strides) {
  int64_t offset = 0;
  for (size_t d = sizes.size(); d-- > 0;) {
    offset += (index % sizes[d]) * strides[d];
    index /= sizes[d];
  }
  return offset;
}

struct Problem {
  IntArrayRef batch_sizes;
  int64_t batch;
  int64_t m, k, n;
  MatrixOperand a, b;
  void* out;
};

// Each block function computes rows [r0, r0 + rows) x columns [c0, c0 + cols) of one product
// whose operands start at a and b and whose output (row stride n) starts at out.

template <typename T, int OrderA, int OrderB>
auto eigen_block(const Problem& p, Layout la, Layout lb) {
  return [&p, la, lb](const T* a, const T* b, T* out, int64_t r0, int64_t rows, int64_t c0,
                      int64_t cols) {
    const MatrixMap<T, OrderA> ma(a, p.m, p.k, Eigen::OuterStride<>(la.outer_stride));
    const MatrixMap<T, OrderB> mb(b, p.k, p.n, Eigen::OuterStride<>(lb.outer_stride));
    OutputMap<T> o(out, p.m, p.n);
    o.block(r0, c0, rows, cols).noalias() = ma.middleRows(r0, rows) * mb.middleCols(c0, cols);
  };
}

// a row-major and b column-major: rows of a against columns of b, both unit-stride.
template <typename T>
auto row_dot_block(const Problem& p, Layout la, Layout lb) {
  return [&p, la, lb](const T* a, const T* b, T* out, int64_t r0, int64_t rows, int64_t c0,
                      int64_t cols) {
    row_dot_gemm<T>({a + r0 * la.outer_stride, rows, la.outer_stride},
                    {b + c0 * lb.outer_stride, cols, lb.outer_stride}, p.k, out + r0 * p.n + c0,
                    p.n);
  };
}

// Row and column blocks of packed_gemm's calls: a's packed rows (kPackedRows x k) and one
// depth block of b's packed columns (at most 128 x kPackedCols) stay in the L2 cache.
constexpr int64_t kPackedRows = 256, kPackedCols = 512;
// Fewer rows than a packed panel holds go to Eigen.
constexpr int64_t kMinPackedRows = 8;
// Whether x · Wᵀ (m rows, depth k) goes through packed_gemm, W transposed into panels, rather
// than row_dot_gemm. Transposing W costs about what a copy of W does, a share of the work that
// falls as rows grow; row_dot_gemm streams four rows of x from the L2 cache per tile and ends
// each output element with a sum across vector lanes, a share that falls as the depth grows.
// Measured in the Linear layer's forward and backward: [32,784]·[784,128]ᵀ and
// [64,3136]·[3136,128]ᵀ ran faster through row_dot_gemm; an LSTM's [64,256]·[256,1024]ᵀ steps,
// [256,784]·[784,128]ᵀ and attention's [2048,256]·[256,256]ᵀ projections faster packed.
bool transposes_right(int64_t m, int64_t k) { return m >= 64 && 4 * m >= k; }

// A right operand that must be transposed into panels (x · Wᵀ) is packed once for all the row
// blocks of a tile up to this size, not once per row block: [2048,256]·[256,1024]ᵀ packed its
// W eight times, a tenth of the product's time.
constexpr int64_t kMaxPackedRightBytes = int64_t{8} << 20;

// Each thread's packing buffers, kept between products so the step allocates nothing.
template <typename T>
struct PackingScratch {
  LeftOperand<T> left;
  PanelBuffer<T> right;
  PackedRight<T> whole_right;
};
template <typename T>
PackingScratch<T>& packing_scratch() {
  thread_local PackingScratch<T> scratch;
  return scratch;
}

// Where an operand mapped with `layout` has element (i, j): i * row + j * col.
struct Strides {
  int64_t row, col;
};
Strides strides_of(Layout layout) {
  return layout.order == Eigen::RowMajor ? Strides{layout.outer_stride, 1}
                                         : Strides{1, layout.outer_stride};
}

// Either operand either way (packing reads b's columns as they lie).
template <typename T>
auto packed_block(const Problem& p, Layout la, Layout lb) {
  return [&p, sa = strides_of(la), sb = strides_of(lb)](const T* a, const T* b, T* out, int64_t r0,
                                                        int64_t rows, int64_t c0, int64_t cols) {
    PackingScratch<T>& scratch = packing_scratch<T>();
    const bool right_once = sb.col != 1 && rows > kPackedRows &&
                            p.k * cols * int64_t(sizeof(T)) <= kMaxPackedRightBytes;
    if (right_once) scratch.whole_right.pack({b + c0 * sb.col, p.k, cols, sb.row, sb.col});
    for (int64_t r = r0; r < r0 + rows; r += kPackedRows) {
      const int64_t block_rows = std::min(kPackedRows, r0 + rows - r);
      if (sa.col == 1 && p.n <= kMaxInPlaceLeftColumns<T>)
        scratch.left.read_in_place({a + r * sa.row, block_rows, p.k, sa.row, sa.col});
      else
        scratch.left.pack({a + r * sa.row, block_rows, p.k, sa.row, sa.col});
      for (int64_t c = c0; c < c0 + cols; c += kPackedCols) {
        const int64_t block_cols = std::min(kPackedCols, c0 + cols - c);
        T* block_out = out + r * p.n + c;
        if (right_once) {
          packed_gemm(scratch.left, scratch.whole_right, c - c0, block_cols, block_out, p.n, false);
          continue;
        }
        const StridedMatrix<T> right{b + c * sb.col, p.k, block_cols, sb.row, sb.col};
        packed_gemm(scratch.left, right, block_out, p.n, false, scratch.right);
      }
    }
  };
}

template <typename T, typename Block>
void run(const Problem& p, const Block& block, TileLimits limits) {
  // Rows [r0, r0+rows) x columns [c0, c0+cols) of product `index`.
  auto product = [&](int64_t index, int64_t r0, int64_t rows, int64_t c0, int64_t cols) {
    const T* a =
        static_cast<const T*>(p.a.data) + batch_offset(index, p.batch_sizes, p.a.batch_strides);
    const T* b =
        static_cast<const T*>(p.b.data) + batch_offset(index, p.batch_sizes, p.b.batch_strides);
    block(a, b, static_cast<T*>(p.out) + index * p.m * p.n, r0, rows, c0, cols);
  };
  EigenThreadsGuard single_threaded(1);
  const int64_t work = p.m * p.n * p.k;
  if (work < kGemmGrain) {
    parallel_for(0, p.batch, std::max<int64_t>(1, kGemmGrain / std::max<int64_t>(work, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) product(i, 0, p.m, 0, p.n);
                 });
    return;
  }
  const Tiling tiling = tiling_for(p.m, p.n, p.k, limits);
  const int64_t per_product = tiling.row_tiles * tiling.col_tiles;
  parallel_for(0, p.batch * per_product, 1, [&](int64_t begin, int64_t end) {
    EigenThreadsGuard worker_single_threaded(1);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t index = t / per_product;
      const int64_t row = (t % per_product) / tiling.col_tiles;
      const int64_t col = (t % per_product) % tiling.col_tiles;
      const int64_t r0 = p.m * row / tiling.row_tiles, r1 = p.m * (row + 1) / tiling.row_tiles;
      const int64_t c0 = p.n * col / tiling.col_tiles, c1 = p.n * (col + 1) / tiling.col_tiles;
      product(index, r0, r1 - r0, c0, c1 - c0);
    }
  });
}

template <typename T>
void run_for_layouts(const Problem& p) {
  const Layout la = layout_of(p.m, p.k, p.a);
  const Layout lb = layout_of(p.k, p.n, p.b);
  const bool a_rows = la.order == Eigen::RowMajor;
  const bool b_rows = lb.order == Eigen::RowMajor;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const TileLimits own{get_num_threads(), kMinOwnTileWork};
    if (a_rows && !b_rows && transposes_right(p.m, p.k))
      return run<T>(p, packed_block<T>(p, la, lb), own);
    if (a_rows && !b_rows && p.k >= simd::kLanes<T>)
      return run<T>(p, row_dot_block<T>(p, la, lb), own);
    if (b_rows && p.m >= kMinPackedRows) return run<T>(p, packed_block<T>(p, la, lb), own);
  }
  constexpr int kRow = Eigen::RowMajor, kCol = Eigen::ColMajor;
  const TileLimits by_cores{default_num_threads(), kMinEigenTileWork};
  if (a_rows && b_rows) return run<T>(p, eigen_block<T, kRow, kRow>(p, la, lb), by_cores);
  if (a_rows) return run<T>(p, eigen_block<T, kRow, kCol>(p, la, lb), by_cores);
  if (b_rows) return run<T>(p, eigen_block<T, kCol, kRow>(p, la, lb), by_cores);
  run<T>(p, eigen_block<T, kCol, kCol>(p, la, lb), by_cores);
}

}  // namespace

void gemm(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
          const MatrixOperand& a, const MatrixOperand& b, void* out) {
  ACCEL_CHECK(gemm_supports(m, k, a.row_stride, a.col_stride) &&
                  gemm_supports(k, n, b.row_stride, b.col_stride),
              "gemm",
              "operands must be row- or column-contiguous, got strides ({}, {}) and ({}, {})",
              a.row_stride, a.col_stride, b.row_stride, b.col_stride);
  const Problem problem{batch_sizes, product(batch_sizes), m, k, n, a, b, out};
  if (problem.batch == 0 || m == 0 || n == 0) return;
  dispatch_numeric(dtype, "matmul", [&]<typename T>() {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      fail("matmul", "{} operands must be converted to float32 before the kernel", dtype);
    } else {
      run_for_layouts<T>(problem);
    }
  });
}

}  // namespace accel::cpu
