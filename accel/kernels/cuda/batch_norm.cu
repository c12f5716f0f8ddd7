// Batch normalization on the GPU. Each channel's sums are taken by one block of kChannelThreads
// threads, thread t adding elements t, t + kChannelThreads, ... of the channel in order and the
// block combining its threads' sums in a fixed tree (line_teams.cuh's block_combine), so every
// run gives the same bits. The element-wise kernels take one element per thread of a
// grid-stride loop, its channel from its index.
#include <cstdint>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/batch_norm.h"
#include "accel/kernels/cuda/line_teams.cuh"

namespace accel::cuda {

namespace {

constexpr int kChannelThreads = 512;

// The offset of element j (in [0, count)) of channel c.
__device__ int64_t channel_element(const BatchNormShape& s, int64_t c, int64_t j) {
  const int64_t n = j / s.spatial;
  return (n * s.channels + c) * s.spatial + (j - n * s.spatial);
}

// The block's sum of term(offset) over channel blockIdx.x's elements.
template <typename A, typename Term>
__device__ A channel_sum(const BatchNormShape& s, const Term& term) {
  const int64_t c = blockIdx.x;
  A total = 0;
  for (int64_t j = threadIdx.x; j < s.count(); j += kChannelThreads) {
    total += term(channel_element(s, c, j));
  }
  return block_combine<kChannelThreads>(total, Plus{});
}

template <typename T>
__global__ void __launch_bounds__(kChannelThreads)
    statistics_kernel(const T* in, acc_t<T>* mean, acc_t<T>* var, BatchNormShape s) {
  using A = acc_t<T>;
  const A count = static_cast<A>(s.count());
  const A m = channel_sum<A>(s, [in](int64_t i) { return static_cast<A>(in[i]); }) / count;
  const A squares = channel_sum<A>(s, [in, m](int64_t i) {
    const A d = static_cast<A>(in[i]) - m;
    return d * d;
  });
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = m;
    var[blockIdx.x] = squares / count;
  }
}

template <typename T>
__global__ void __launch_bounds__(kChannelThreads)
    backward_reduce_kernel(const T* grad, const T* in, const acc_t<T>* mean, const acc_t<T>* invstd,
                           acc_t<T>* sum_grad, acc_t<T>* sum_grad_xhat, BatchNormShape s) {
  using A = acc_t<T>;
  const A m = mean[blockIdx.x];
  const A rs = invstd[blockIdx.x];
  const A g_total = channel_sum<A>(s, [grad](int64_t i) { return static_cast<A>(grad[i]); });
  const A gx_total = channel_sum<A>(s, [grad, in, m, rs](int64_t i) {
    return static_cast<A>(grad[i]) * ((static_cast<A>(in[i]) - m) * rs);
  });
  if (threadIdx.x == 0) {
    sum_grad[blockIdx.x] = g_total;
    sum_grad_xhat[blockIdx.x] = gx_total;
  }
}

__device__ int64_t channel_of(const BatchNormShape& s, int64_t i) {
  return (i / s.spatial) % s.channels;
}

template <typename T>
__global__ void normalize_kernel(const T* in, const acc_t<T>* mean, const acc_t<T>* invstd,
                                 const acc_t<T>* weight, const acc_t<T>* bias, T* out,
                                 BatchNormShape s) {
  using A = acc_t<T>;
  const int64_t n = s.count() * s.channels;
  for (int64_t i = global_thread_index(); i < n; i += grid_stride()) {
    const int64_t c = channel_of(s, i);
    const A k = weight != nullptr ? invstd[c] * weight[c] : invstd[c];
    const A b = bias != nullptr ? bias[c] : A(0);
    out[i] = static_cast<T>((static_cast<A>(in[i]) - mean[c]) * k + b);
  }
}

template <typename T>
__global__ void backward_input_kernel(const T* grad, const T* in, const acc_t<T>* mean,
                                      const acc_t<T>* invstd, const acc_t<T>* weight,
                                      const acc_t<T>* sum_grad, const acc_t<T>* sum_grad_xhat,
                                      T* grad_in, BatchNormShape s) {
  using A = acc_t<T>;
  const A count = static_cast<A>(s.count());
  const int64_t n = s.count() * s.channels;
  for (int64_t i = global_thread_index(); i < n; i += grid_stride()) {
    const int64_t c = channel_of(s, i);
    const A k = weight != nullptr ? invstd[c] * weight[c] : invstd[c];
    const A q = sum_grad_xhat != nullptr ? k * invstd[c] * sum_grad_xhat[c] / count : A(0);
    const A offset = sum_grad != nullptr ? k * sum_grad[c] / count : A(0);
    grad_in[i] = static_cast<T>(static_cast<A>(grad[i]) * k -
                                (static_cast<A>(in[i]) - mean[c]) * q - offset);
  }
}

}  // namespace

void batch_norm_statistics(ScalarType type, const void* in, void* mean, void* var,
                           BatchNormShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  if (shape.channels == 0) return;
  dispatch_floating(type, "batch_norm", [&]<typename T>() {
    using A = acc_t<T>;
    statistics_kernel<T><<<static_cast<unsigned>(shape.channels), kChannelThreads, 0, s>>>(
        static_cast<const T*>(in), static_cast<A*>(mean), static_cast<A*>(var), shape);
  });
  check_launch("batch_norm");
}

void batch_norm_normalize(ScalarType type, const void* in, const void* mean, const void* invstd,
                          const void* weight, const void* bias, void* out, BatchNormShape shape,
                          const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const int64_t n = shape.count() * shape.channels;
  if (n == 0) return;
  dispatch_floating(type, "batch_norm", [&]<typename T>() {
    using A = acc_t<T>;
    normalize_kernel<T><<<blocks_for(n), kThreadsPerBlock, 0, s>>>(
        static_cast<const T*>(in), static_cast<const A*>(mean), static_cast<const A*>(invstd),
        static_cast<const A*>(weight), static_cast<const A*>(bias), static_cast<T*>(out), shape);
  });
  check_launch("batch_norm");
}

void batch_norm_backward_reduce(ScalarType type, const void* grad, const void* in, const void* mean,
                                const void* invstd, void* sum_grad, void* sum_grad_xhat,
                                BatchNormShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  if (shape.channels == 0) return;
  dispatch_floating(type, "batch_norm_backward", [&]<typename T>() {
    using A = acc_t<T>;
    backward_reduce_kernel<T><<<static_cast<unsigned>(shape.channels), kChannelThreads, 0, s>>>(
        static_cast<const T*>(grad), static_cast<const T*>(in), static_cast<const A*>(mean),
        static_cast<const A*>(invstd), static_cast<A*>(sum_grad), static_cast<A*>(sum_grad_xhat),
        shape);
  });
  check_launch("batch_norm_backward");
}

void batch_norm_backward_input(ScalarType type, const void* grad, const void* in, const void* mean,
                               const void* invstd, const void* weight, const void* sum_grad,
                               const void* sum_grad_xhat, void* grad_in, BatchNormShape shape,
                               const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const int64_t n = shape.count() * shape.channels;
  if (n == 0) return;
  dispatch_floating(type, "batch_norm_backward", [&]<typename T>() {
    using A = acc_t<T>;
    backward_input_kernel<T><<<blocks_for(n), kThreadsPerBlock, 0, s>>>(
        static_cast<const T*>(grad), static_cast<const T*>(in), static_cast<const A*>(mean),
        static_cast<const A*>(invstd), static_cast<const A*>(weight),
        static_cast<const A*>(sum_grad), static_cast<const A*>(sum_grad_xhat),
        static_cast<T*>(grad_in), shape);
  });
  check_launch("batch_norm_backward");
}

}  // namespace accel::cuda
