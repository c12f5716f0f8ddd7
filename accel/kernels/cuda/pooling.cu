// 2-D max and average pooling on the GPU, the device twins of kernels/cpu/pooling.cpp: the
// forward kernels take one thread per output and walk its window in the CPU's order; the
// backward kernels take one thread per input element and gather, in output order, what the
// CPU scatters in output order, so every sum is formed in the same order: the CPU's bits, with
// no atomics.
#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/pool2d_windows.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/pooling.h"

namespace accel::cuda {

namespace {

// Output coordinates [first, last] along one dim.
struct Range {
  int64_t first, last;
};

// The outputs o whose windows [o * stride - pad, o * stride - pad + extent) hold coordinate x.
__device__ Range windows_holding(int64_t x, int64_t stride, int64_t pad, int64_t extent,
                                 int64_t outputs) {
  const int64_t reach = x + pad - extent + 1;  // o * stride must be at least this
  return {reach <= 0 ? 0 : (reach + stride - 1) / stride,
          std::min((x + pad) / stride, outputs - 1)};
}

// The adaptive windows [floor(o * in / out), ceil((o + 1) * in / out)) holding x:
// floor(o * in / out) <= x  <=>  o <= ceil((x + 1) * out / in) - 1, and
// ceil((o + 1) * in / out) > x  <=>  o >= floor(x * out / in).
__device__ Range adaptive_windows_holding(int64_t x, int64_t in, int64_t out) {
  return {(x * out) / in, std::min(((x + 1) * out + in - 1) / in - 1, out - 1)};
}

// The CPU's generic rule (its 2x2 fast path picks the same element): taps in row-major order,
// a later tap wins when strictly greater or NaN, so the first maximum wins a tie and the last
// NaN wins over everything.
template <typename T>
__global__ void max_pool_kernel(Pool2dShape s, const T* in, T* out, int64_t* indices) {
  using A = acc_t<T>;
  const int64_t outputs = s.planes * s.out_h * s.out_w;
  for (int64_t o = global_thread_index(); o < outputs; o += grid_stride()) {
    const int64_t ow = o % s.out_w, oh = (o / s.out_w) % s.out_h, p = o / (s.out_w * s.out_h);
    const T* plane = in + p * s.in_h * s.in_w;
    const PoolTaps rows = max_pool_row_taps(s, oh), cols = max_pool_col_taps(s, ow);
    const WindowMax<A> best =
        max_pool_window_max<A>(plane, s.in_w, rows, cols, s.dilation_h, s.dilation_w);
    out[o] = static_cast<T>(best.value);
    indices[o] = best.index;
  }
}

// The CPU adds grad_out[o] at indices[o] for o in output order, starting from zero (in A),
// skipping outputs whose window has no tap inside the input (their index is stray). An input
// element gathers the same terms in the same order: of the outputs whose window spans hold it,
// in output order, those whose argmax it is and whose window has a tap. An argmax is a tap of
// its window, so inside its span; a stray index may fall inside a span too, hence the test.
template <typename T>
__global__ void max_pool_backward_kernel(Pool2dShape s, const T* grad_out, const int64_t* indices,
                                         T* grad_in) {
  using A = acc_t<T>;
  const int64_t inputs = s.planes * s.in_h * s.in_w;
  const int64_t extent_h = (s.kernel_h - 1) * s.dilation_h + 1;
  const int64_t extent_w = (s.kernel_w - 1) * s.dilation_w + 1;
  for (int64_t e = global_thread_index(); e < inputs; e += grid_stride()) {
    const int64_t w = e % s.in_w, h = (e / s.in_w) % s.in_h, p = e / (s.in_w * s.in_h);
    const int64_t position = h * s.in_w + w;
    const int64_t plane = p * s.out_h * s.out_w;
    const Range rows = windows_holding(h, s.stride_h, s.pad_h, extent_h, s.out_h);
    const Range cols = windows_holding(w, s.stride_w, s.pad_w, extent_w, s.out_w);
    A sum = 0;
    for (int64_t oh = rows.first; oh <= rows.last; ++oh) {
      for (int64_t ow = cols.first; ow <= cols.last; ++ow) {
        const int64_t o = plane + oh * s.out_w + ow;
        if (indices[o] == position && max_pool_window_has_tap(s, oh, ow)) {
          sum += static_cast<A>(grad_out[o]);
        }
      }
    }
    grad_in[e] = static_cast<T>(sum);
  }
}

template <typename T>
__global__ void avg_pool_kernel(Pool2dShape s, AvgWindows windows, const T* in, T* out) {
  using A = acc_t<T>;
  const int64_t outputs = s.planes * s.out_h * s.out_w;
  for (int64_t o = global_thread_index(); o < outputs; o += grid_stride()) {
    const int64_t ow = o % s.out_w, oh = (o / s.out_w) % s.out_h, p = o / (s.out_w * s.out_h);
    const T* plane = in + p * s.in_h * s.in_w;
    const AvgPoolWindow win = avg_pool_window(s, windows, oh, ow);
    A sum = 0;
    for (int64_t h = win.h0; h < win.h1; ++h) {
      for (int64_t w = win.w0; w < win.w1; ++w) sum += static_cast<A>(plane[h * s.in_w + w]);
    }
    out[o] = static_cast<T>(sum / static_cast<A>(win.divisor));
  }
}

// The CPU adds grad_out[o] / divisor over each window in output order; an input element
// gathers the shares of the windows holding it in the same order.
template <typename T>
__global__ void avg_pool_backward_kernel(Pool2dShape s, AvgWindows windows, const T* grad_out,
                                         T* grad_in) {
  using A = acc_t<T>;
  const int64_t inputs = s.planes * s.in_h * s.in_w;
  for (int64_t e = global_thread_index(); e < inputs; e += grid_stride()) {
    const int64_t w = e % s.in_w, h = (e / s.in_w) % s.in_h, p = e / (s.in_w * s.in_h);
    const int64_t plane = p * s.out_h * s.out_w;
    const bool adaptive = windows == AvgWindows::Adaptive;
    const Range rows = adaptive ? adaptive_windows_holding(h, s.in_h, s.out_h)
                                : windows_holding(h, s.stride_h, s.pad_h, s.kernel_h, s.out_h);
    const Range cols = adaptive ? adaptive_windows_holding(w, s.in_w, s.out_w)
                                : windows_holding(w, s.stride_w, s.pad_w, s.kernel_w, s.out_w);
    A sum = 0;
    for (int64_t oh = rows.first; oh <= rows.last; ++oh) {
      for (int64_t ow = cols.first; ow <= cols.last; ++ow) {
        const AvgPoolWindow win = avg_pool_window(s, windows, oh, ow);
        if (h < win.h0 || h >= win.h1 || w < win.w0 || w >= win.w1) continue;
        sum += static_cast<A>(grad_out[plane + oh * s.out_w + ow]) / static_cast<A>(win.divisor);
      }
    }
    grad_in[e] = static_cast<T>(sum);
  }
}

}  // namespace

void max_pool2d(ScalarType dtype, const Pool2dShape& s, const void* in, void* out, int64_t* indices,
                const Stream& stream) {
  for_floating(dtype, "max_pool2d", s.planes * s.out_h * s.out_w, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 max_pool_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(in), static_cast<T*>(out), indices);
               });
}

void max_pool2d_backward(ScalarType dtype, const Pool2dShape& s, const void* grad_out,
                         const int64_t* indices, void* grad_in, const Stream& stream) {
  for_floating(dtype, "max_pool2d_backward", s.planes * s.in_h * s.in_w, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 max_pool_backward_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(grad_out), indices, static_cast<T*>(grad_in));
               });
}

void avg_pool2d(ScalarType dtype, const Pool2dShape& s, AvgWindows windows, const void* in,
                void* out, const Stream& stream) {
  for_floating(dtype, "avg_pool2d", s.planes * s.out_h * s.out_w, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 avg_pool_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, windows, static_cast<const T*>(in), static_cast<T*>(out));
               });
}

void avg_pool2d_backward(ScalarType dtype, const Pool2dShape& s, AvgWindows windows,
                         const void* grad_out, void* grad_in, const Stream& stream) {
  for_floating(dtype, "avg_pool2d_backward", s.planes * s.in_h * s.in_w, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 avg_pool_backward_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, windows, static_cast<const T*>(grad_out), static_cast<T*>(grad_in));
               });
}

}  // namespace accel::cuda
