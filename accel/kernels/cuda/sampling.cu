// Sampling at taps on the GPU, summing in the CPU's orders with no atomics: the forward takes
// one thread per output and the weights' gradient one per (batch, tap, location), each looping
// as the CPU does; the input's gradient takes one thread per (batch, channel) row, which adds
// its row's taps in location order as the CPU's task does (simple and deterministic, but with
// only batch * channels threads).
#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/sampling.h"

namespace accel::cuda {

namespace {

template <typename T>
__global__ void tap_sample_kernel(TapShape s, const T* input, const int64_t* index, const T* weight,
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
__global__ void tap_sample_backward_input_kernel(TapShape s, const T* grad, const int64_t* index,
                                                 const T* weight, T* grad_input) {
  using A = acc_t<T>;
  const int64_t rows = s.batch * s.channels;
  for (int64_t row = global_thread_index(); row < rows; row += grid_stride()) {
    const int64_t b = row / s.channels;
    const T* g = grad + row * s.locations;
    const int64_t* at = index + b * s.taps * s.locations;
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

template <typename T>
__global__ void tap_sample_backward_weight_kernel(TapShape s, const T* input, const int64_t* index,
                                                  const T* grad, T* grad_weight) {
  using A = acc_t<T>;
  const int64_t taps = s.batch * s.taps * s.locations;
  for (int64_t e = global_thread_index(); e < taps; e += grid_stride()) {
    const int64_t p = e % s.locations;
    const int64_t b = e / (s.taps * s.locations);
    const int64_t at = index[e];
    A sum = 0;
    for (int64_t c = 0; at >= 0 && c < s.channels; ++c) {
      const int64_t row = b * s.channels + c;
      sum += static_cast<A>(grad[row * s.locations + p]) *
             static_cast<A>(input[row * s.input_size + at]);
    }
    grad_weight[e] = static_cast<T>(sum);
  }
}

}  // namespace

void tap_sample(ScalarType dtype, const TapShape& s, const void* input, const int64_t* index,
                const void* weight, void* out, const Stream& stream) {
  for_floating(dtype, "grid_sample", s.batch * s.channels * s.locations, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 tap_sample_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(input), index, static_cast<const T*>(weight),
                     static_cast<T*>(out));
               });
}

void tap_sample_backward_input(ScalarType dtype, const TapShape& s, const void* grad,
                               const int64_t* index, const void* weight, void* grad_input,
                               const Stream& stream) {
  for_floating(dtype, "grid_sample_backward", s.batch * s.channels, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 tap_sample_backward_input_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(grad), index, static_cast<const T*>(weight),
                     static_cast<T*>(grad_input));
               });
}

void tap_sample_backward_weight(ScalarType dtype, const TapShape& s, const void* input,
                                const int64_t* index, const void* grad, void* grad_weight,
                                const Stream& stream) {
  for_floating(dtype, "grid_sample_backward", s.batch * s.taps * s.locations, stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 tap_sample_backward_weight_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(input), index, static_cast<const T*>(grad),
                     static_cast<T*>(grad_weight));
               });
}

}  // namespace accel::cuda
