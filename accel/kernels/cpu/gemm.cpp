// Matrix products through Eigen's GEMM, the only translation unit that includes Eigen. Each
// operand is mapped in place: as a row-major matrix, or as a column-major one when its
// columns are the unit-stride dim (a transposed view), so transposes cost no copy. Eigen
// always runs single-threaded: a large product is cut into output tiles whose number and
// shape depend only on the problem's shape and the machine's core count, and threads take
// whole tiles (batches of small products are spread the same way, one product per task).
// Every output element is thus computed by the same sequence of operations whatever the
// thread count set: results are bit-identical.
#include "accel/kernels/cpu/gemm.h"

// GCC 12 flags Eigen's AVX-512 reductions (an intrinsic's deliberately undefined register)
// as maybe-uninitialized at every instantiation; the warning is about Eigen, not this file.
// Clang has no such warning (and would warn about the unknown name).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// Multiply-adds below which a product stays whole on one thread (starting threads costs more).
constexpr int64_t kGemmGrain = int64_t{1} << 18;
// Multiply-adds per tile at least: each tile is one Eigen call, which re-packs operands and
// costs ~9 us more than sharing a call (a [32,784]x[784,128] product cut in two ran 12%
// slower on one thread), so a tile must be worth well over that.
constexpr int64_t kMinTileWork = int64_t{1} << 23;

// How a product's [m, n] output is cut: row_tiles x col_tiles tiles of near-equal size.
struct Tiling {
  int64_t row_tiles = 1, col_tiles = 1;
};

// As many tiles as the machine has cores (no more than kMinTileWork allows), so every thread
// count up to the default gets an even share; fixed by shape and machine, never by the
// current thread count. Among the splits giving that many, the one Eigen re-packs least:
// it packs the left operand's rows once per column tile and the right operand's columns once
// per row tile, so a split costs col_tiles * m + row_tiles * n packed rows/columns of depth k.
Tiling tiling_for(int64_t m, int64_t n, int64_t k) {
  const int64_t wanted = std::clamp<int64_t>(m * n * k / kMinTileWork, 1, default_num_threads());
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

// Eigen's parallel GEMM asks OpenMP for its thread count (omp_get_max_threads, as long as
// nobody calls Eigen::setNbThreads). That setting is per thread, so setting it around one
// product governs Eigen by set_num_threads without racing other threads calling ops.
class EigenThreadsGuard {
 public:
#ifdef _OPENMP
  explicit EigenThreadsGuard(int threads) : previous_(omp_get_max_threads()) {
    if (threads != previous_) omp_set_num_threads(threads);
  }
  ~EigenThreadsGuard() {
    if (omp_get_max_threads() != previous_) omp_set_num_threads(previous_);
  }

 private:
  int previous_;
#else
  explicit EigenThreadsGuard(int) {}
#endif
};

struct Problem {
  IntArrayRef batch_sizes;
  int64_t batch;
  int64_t m, k, n;
  MatrixOperand a, b;
  void* out;
};

template <typename T, int OrderA, int OrderB>
void run(const Problem& p, Layout la, Layout lb) {
  // Rows [r0, r0+rows) x columns [c0, c0+cols) of product `index`.
  auto product = [&](int64_t index, int64_t r0, int64_t rows, int64_t c0, int64_t cols) {
    const T* a =
        static_cast<const T*>(p.a.data) + batch_offset(index, p.batch_sizes, p.a.batch_strides);
    const T* b =
        static_cast<const T*>(p.b.data) + batch_offset(index, p.batch_sizes, p.b.batch_strides);
    const MatrixMap<T, OrderA> ma(a, p.m, p.k, Eigen::OuterStride<>(la.outer_stride));
    const MatrixMap<T, OrderB> mb(b, p.k, p.n, Eigen::OuterStride<>(lb.outer_stride));
    OutputMap<T> out(static_cast<T*>(p.out) + index * p.m * p.n, p.m, p.n);
    out.block(r0, c0, rows, cols).noalias() = ma.middleRows(r0, rows) * mb.middleCols(c0, cols);
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
  const Tiling tiling = tiling_for(p.m, p.n, p.k);
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
  if (a_rows && b_rows) return run<T, Eigen::RowMajor, Eigen::RowMajor>(p, la, lb);
  if (a_rows) return run<T, Eigen::RowMajor, Eigen::ColMajor>(p, la, lb);
  if (b_rows) return run<T, Eigen::ColMajor, Eigen::RowMajor>(p, la, lb);
  run<T, Eigen::ColMajor, Eigen::ColMajor>(p, la, lb);
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
