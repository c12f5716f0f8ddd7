// Which input elements each output of a 2-D pooling reads (its window), written once for the
// CPU loops and the CUDA kernels so both devices pool, divide and route gradients alike.
// PyTorch's rules, as its CPU and CUDA kernels compute them.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "accel/base/macros.h"
#include "accel/kernels/common/pool2d_shape.h"

namespace accel {

// The taps of a max-pooling window along one dim that lie inside the input: first, first +
// dilation, ... below end. Output o's window starts at o * stride - pad and spans
// (kernel - 1) * dilation + 1 elements; taps in the left padding are skipped. When a dilation
// steps over the whole input, first >= end: the window has no tap inside the input.
struct PoolTaps {
  int64_t first, end;
};

ACCEL_INLINE PoolTaps max_pool_taps(int64_t o, int64_t stride, int64_t pad, int64_t kernel,
                                    int64_t dilation, int64_t in) {
  int64_t first = o * stride - pad;
  const int64_t window_end = first + (kernel - 1) * dilation + 1;
  const int64_t end = window_end < in ? window_end : in;
  while (first < 0) first += dilation;
  return {first, end};
}

ACCEL_INLINE PoolTaps max_pool_row_taps(const Pool2dShape& s, int64_t oh) {
  return max_pool_taps(oh, s.stride_h, s.pad_h, s.kernel_h, s.dilation_h, s.in_h);
}

ACCEL_INLINE PoolTaps max_pool_col_taps(const Pool2dShape& s, int64_t ow) {
  return max_pool_taps(ow, s.stride_w, s.pad_w, s.kernel_w, s.dilation_w, s.in_w);
}

// Whether output (oh, ow) of a max pooling reads any input element. One that does not is -inf
// at a stray index (its first taps past the padding, flat first_h * in_w + first_w, as PyTorch
// writes it: past the plane, or in a later row) and passes no gradient.
ACCEL_INLINE bool max_pool_window_has_tap(const Pool2dShape& s, int64_t oh, int64_t ow) {
  const PoolTaps rows = max_pool_row_taps(s, oh);
  const PoolTaps cols = max_pool_col_taps(s, ow);
  return rows.first < rows.end && cols.first < cols.end;
}

// The maximum of a max-pooling window (taps `rows` x `cols`) over one input plane, in A, and
// where it is (flat h * in_w + w). Taps go in row-major order and a later tap wins when strictly
// greater or NaN, so the first maximum wins a tie and the last NaN wins over everything. A
// window with no tap is -inf at rows.first * in_w + cols.first, as PyTorch gives it.
template <typename A>
struct WindowMax {
  A value;
  int64_t index;
};

template <typename A, typename T>
ACCEL_INLINE WindowMax<A> max_pool_window_max(const T* plane, int64_t in_w, PoolTaps rows,
                                              PoolTaps cols, int64_t dilation_h,
                                              int64_t dilation_w) {
  WindowMax<A> best{-std::numeric_limits<A>::infinity(), rows.first * in_w + cols.first};
  for (int64_t h = rows.first; h < rows.end; h += dilation_h) {
    for (int64_t w = cols.first; w < cols.end; w += dilation_w) {
      const A v = static_cast<A>(plane[h * in_w + w]);
      if (v > best.value || std::isnan(v)) best = {v, h * in_w + w};
    }
  }
  return best;
}

// PyTorch's adaptive windows along one dim: output i reads [floor(i * in / out),
// ceil((i + 1) * in / out)).
ACCEL_INLINE int64_t adaptive_pool_start(int64_t i, int64_t in, int64_t out) {
  return (i * in) / out;
}
ACCEL_INLINE int64_t adaptive_pool_end(int64_t i, int64_t in, int64_t out) {
  return ((i + 1) * in + out - 1) / out;
}

// One average-pooling window: rows [h0, h1), cols [w0, w1) of the input, and its divisor.
struct AvgPoolWindow {
  int64_t h0, h1, w0, w1;
  int64_t divisor;
};

ACCEL_INLINE AvgPoolWindow avg_pool_window(const Pool2dShape& s, AvgWindows windows, int64_t oh,
                                           int64_t ow) {
  if (windows == AvgWindows::Adaptive) {
    const int64_t h0 = adaptive_pool_start(oh, s.in_h, s.out_h);
    const int64_t h1 = adaptive_pool_end(oh, s.in_h, s.out_h);
    const int64_t w0 = adaptive_pool_start(ow, s.in_w, s.out_w);
    const int64_t w1 = adaptive_pool_end(ow, s.in_w, s.out_w);
    return {h0, h1, w0, w1, (h1 - h0) * (w1 - w0)};
  }
  // The window is first clipped to the padded input (which gives the divisor with
  // count_include_pad), then to the input itself.
  int64_t h0 = oh * s.stride_h - s.pad_h, w0 = ow * s.stride_w - s.pad_w;
  int64_t h1 = h0 + s.kernel_h, w1 = w0 + s.kernel_w;
  if (h1 > s.in_h + s.pad_h) h1 = s.in_h + s.pad_h;
  if (w1 > s.in_w + s.pad_w) w1 = s.in_w + s.pad_w;
  const int64_t padded_size = (h1 - h0) * (w1 - w0);
  if (h0 < 0) h0 = 0;
  if (w0 < 0) w0 = 0;
  if (h1 > s.in_h) h1 = s.in_h;
  if (w1 > s.in_w) w1 = s.in_w;
  const int64_t divisor = windows == AvgWindows::IncludePad ? padded_size : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

}  // namespace accel
