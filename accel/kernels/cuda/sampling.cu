// Sampling at taps on the GPU, in the CPU's orders and with no atomics. grid_sample's taps
// take one thread per location (the CPU's per-location math, kernels/common/grid_taps.h), the
// forward one per output; the input's gradient one per (batch, channel) row, which adds its
// row's taps in location order as the CPU does (simple and deterministic, but with only
// batch * channels threads); the gradient of the weights' parameters one per location.
#include "accel/base/dispatch.h"
#include "accel/kernels/common/grid_taps.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/sampling.h"

namespace accel::cuda {

namespace {

template <GridInterpolation I, GridPadding P, int S, typename T>
__global__ void grid_sample_taps_kernel(GridTapsShape s, int64_t taps, const T* grid,
                                        int32_t* index, T* weight, T* weight_grad) {
  const GridAxes<acc_t<T>, S> axes = grid_axes<acc_t<T>, S>(s);
  for (int64_t e = global_thread_index(); e < s.batch * s.locations; e += grid_stride()) {
    const int64_t first = (e / s.locations) * taps * s.locations + e % s.locations;
    grid_location_taps<I, P, S>(axes, grid + e * S, index + first, weight + first,
                                weight_grad == nullptr ? nullptr : weight_grad + first * S,
                                s.locations);
  }
}

template <typename T>
__global__ void tap_sample_kernel(TapShape s, const T* input, const int32_t* index, const T* weight,
                                  T* out) {
  using A = acc_t<T>;
  const int64_t outputs = s.batch * s.channels * s.locations;
  for (int64_t e = global_thread_index(); e < outputs; e += grid_stride()) {
    const int64_t p = e % s.locations;
    const int64_t row = e / s.locations;
    const int64_t b = row / s.channels;
    const T* in = input + row * s.input_size;
    const int64_t first_tap = b * s.taps * s.locations + p;
    A sum = 0;
    for (int64_t k = 0; k < s.taps; ++k) {
      const int64_t tap = first_tap + k * s.locations;
      if (index[tap] >= 0) sum += static_cast<A>(in[index[tap]]) * static_cast<A>(weight[tap]);
    }
    out[e] = static_cast<T>(sum);
  }
}

template <typename T>
__global__ void tap_sample_backward_input_kernel(TapShape s, const T* grad, const int32_t* index,
                                                 const T* weight, T* grad_input) {
  using A = acc_t<T>;
  const int64_t rows = s.batch * s.channels;
  for (int64_t row = global_thread_index(); row < rows; row += grid_stride()) {
    const int64_t b = row / s.channels;
    const T* g = grad + row * s.locations;
    const int32_t* at = index + b * s.taps * s.locations;
    const T* w = weight + b * s.taps * s.locations;
    T* gi = grad_input + row * s.input_size;
    for (int64_t i = 0; i < s.input_size; ++i) gi[i] = T(0);
    for (int64_t p = 0; p < s.locations; ++p) {
      for (int64_t k = 0; k < s.taps; ++k) {
        const int64_t tap = k * s.locations + p;
        if (at[tap] < 0) continue;
        gi[at[tap]] = static_cast<T>(static_cast<A>(gi[at[tap]]) +
                                     static_cast<A>(w[tap]) * static_cast<A>(g[p]));
      }
    }
  }
}

// One thread per (batch, location): the sums over channels of grad * input per tap, then the
// chain rule through the weights' derivatives, in the CPU's orders.
template <typename T>
__global__ void tap_sample_backward_params_kernel(TapShape s, const T* input, const T* grad,
                                                  const int32_t* index, int64_t params,
                                                  const T* weight_grad, T* grad_params) {
  using A = acc_t<T>;
  for (int64_t e = global_thread_index(); e < s.batch * s.locations; e += grid_stride()) {
    const int64_t p = e % s.locations;
    const int64_t b = e / s.locations;
    A sums[kMaxTapParams] = {};
    for (int64_t k = 0; k < s.taps; ++k) {
      const int64_t tap = (b * s.taps + k) * s.locations + p;
      const int32_t at = index[tap];
      A weight_sum = 0;
      for (int64_t c = 0; at >= 0 && c < s.channels; ++c) {
        const int64_t row = b * s.channels + c;
        weight_sum += static_cast<A>(grad[row * s.locations + p]) *
                      static_cast<A>(input[row * s.input_size + at]);
      }
      for (int64_t j = 0; j < params; ++j) {
        sums[j] += weight_sum * static_cast<A>(weight_grad[tap * params + j]);
      }
    }
    for (int64_t j = 0; j < params; ++j) grad_params[e * params + j] = static_cast<T>(sums[j]);
  }
}

}  // namespace

void grid_sample_taps(ScalarType dtype, const GridTapsShape& s, const void* grid, int32_t* index,
                      void* weight, void* weight_grad, const Stream& stream) {
  for_floating(dtype, "grid_sample", s.batch * s.locations, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 dispatch_grid_taps(s, [&]<GridInterpolation I, GridPadding P, int S>() {
                   grid_sample_taps_kernel<I, P, S, T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                       s, grid_tap_count(s), static_cast<const T*>(grid), index,
                       static_cast<T*>(weight), static_cast<T*>(weight_grad));
                 });
               });
}

void tap_sample(ScalarType dtype, const TapShape& s, const void* input, const int32_t* index,
                const void* weight, void* out, const Stream& stream) {
  for_floating(dtype, "grid_sample", s.batch * s.channels * s.locations, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 tap_sample_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(input), index, static_cast<const T*>(weight),
                     static_cast<T*>(out));
               });
}

void tap_sample_backward(ScalarType dtype, const TapShape& s, const void* input, const void* grad,
                         const int32_t* index, const void* weight, int64_t params,
                         const void* weight_grad, void* grad_input, void* grad_params,
                         const Stream& stream) {
  if (grad_input != nullptr) {
    for_floating(dtype, "grid_sample_backward", s.batch * s.channels, stream,
                 [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                   tap_sample_backward_input_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                       s, static_cast<const T*>(grad), index, static_cast<const T*>(weight),
                       static_cast<T*>(grad_input));
                 });
  }
  if (grad_params != nullptr) {
    for_floating(dtype, "grid_sample_backward", s.batch * s.locations, stream,
                 [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                   tap_sample_backward_params_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                       s, static_cast<const T*>(input), static_cast<const T*>(grad), index, params,
                       static_cast<const T*>(weight_grad), static_cast<T*>(grad_params));
                 });
  }
}

}  // namespace accel::cuda
