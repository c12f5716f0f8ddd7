// The row-dot product (see row_dot_gemm.h). A tile of 4 rows of `a` against 4 rows of `b` keeps
// sixteen vector sums in registers; each step along the depth loads one vector of every row
// and does sixteen multiply-adds. The tile walks `a` for each group of `b`'s rows, so those
// stay in the L1 cache while `a` streams from L2.
#include "accel/kernels/cpu/row_dot_gemm.h"

#include <algorithm>

#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

namespace {

using simd::kLanes;
using simd::Vector;

constexpr int64_t kTileRows = 4;

// The Rows x Cols block of `out` at (0, 0): a's rows [0, Rows) against b's rows [0, Cols).
template <typename T, int64_t Rows, int64_t Cols>
void dot_tile(const T* a, int64_t a_stride, const T* b, int64_t b_stride, int64_t depth, T* out,
              int64_t out_stride) {
  constexpr int64_t L = kLanes<T>;
  Vector<T> sum[Rows][Cols] = {};
  const auto step = [&](auto load_row) {
    Vector<T> x[Rows];
    for (int64_t r = 0; r < Rows; ++r) x[r] = load_row(a + r * a_stride);
    for (int64_t c = 0; c < Cols; ++c) {
      const Vector<T> w = load_row(b + c * b_stride);
      for (int64_t r = 0; r < Rows; ++r) sum[r][c] += x[r] * w;
    }
  };
  int64_t d = 0;
  for (; d + L <= depth; d += L) {
    step([d](const T* row) { return simd::load(row + d); });
  }
  if (d < depth) {
    step([d, rest = depth - d](const T* row) { return simd::load_partial(row + d, rest); });
  }
  for (int64_t r = 0; r < Rows; ++r) {
    for (int64_t c = 0; c < Cols; ++c) out[r * out_stride + c] = simd::horizontal_sum<T>(sum[r][c]);
  }
}

template <typename T>
using TileFunction = void (*)(const T*, int64_t, const T*, int64_t, int64_t, T*, int64_t);

// The tile for `rows` x `cols` (each 1..kTileRows).
template <typename T>
TileFunction<T> tile_for(int64_t rows, int64_t cols) {
  static constexpr TileFunction<T> tiles[kTileRows][kTileRows] = {
      {&dot_tile<T, 1, 1>, &dot_tile<T, 1, 2>, &dot_tile<T, 1, 3>, &dot_tile<T, 1, 4>},
      {&dot_tile<T, 2, 1>, &dot_tile<T, 2, 2>, &dot_tile<T, 2, 3>, &dot_tile<T, 2, 4>},
      {&dot_tile<T, 3, 1>, &dot_tile<T, 3, 2>, &dot_tile<T, 3, 3>, &dot_tile<T, 3, 4>},
      {&dot_tile<T, 4, 1>, &dot_tile<T, 4, 2>, &dot_tile<T, 4, 3>, &dot_tile<T, 4, 4>}};
  return tiles[rows - 1][cols - 1];
}

}  // namespace

template <typename T>
void row_dot_gemm(const DepthRows<T>& a, const DepthRows<T>& b, int64_t depth, T* out,
                  int64_t out_stride) {
  for (int64_t j = 0; j < b.rows; j += kTileRows) {
    const int64_t cols = std::min(kTileRows, b.rows - j);
    for (int64_t i = 0; i < a.rows; i += kTileRows) {
      tile_for<T>(std::min(kTileRows, a.rows - i), cols)(
          a.data + i * a.row_stride, a.row_stride, b.data + j * b.row_stride, b.row_stride, depth,
          out + i * out_stride + j, out_stride);
    }
  }
}

template void row_dot_gemm(const DepthRows<float>&, const DepthRows<float>&, int64_t, float*,
                           int64_t);
template void row_dot_gemm(const DepthRows<double>&, const DepthRows<double>&, int64_t, double*,
                           int64_t);

}  // namespace accel::cpu
