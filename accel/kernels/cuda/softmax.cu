// softmax and log_softmax along r of the [outer, reduced, inner] view on the GPU, forward and
// backward: the device twin of the softmax kernels in kernels/cpu/reduce.cpp, with the same
// formulas, so NaN and infinities give what they give there.
//
// Each line (o, :, i) is normalized by one group of threads: a warp per row when rows are
// contiguous (inner == 1) and short, as for classifier logits; a 512-thread block per longer
// row; one thread per line when inner > 1, adjacent threads taking adjacent i so their reads
// coalesce. A group combines its members' maxima and sums in a fixed shuffle tree, so every
// run gives the same bits. Each pass re-reads the line, which the earlier pass left in cache.
#include <algorithm>
#include <cstdint>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/reduce.h"

namespace accel::cuda {

namespace {

constexpr int kWarp = 32;
constexpr int kRowBlock = 512;         // threads normalizing one long row
constexpr int64_t kWarpRowMax = 1024;  // longest row a warp takes (32 elements per lane)

// The maximum that propagates NaN, as the CPU's.
struct NanMax {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    return (b > a || b != b) ? b : a;
  }
};

struct Add {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    return a + b;
  }
};

// Lane 0 combines the warp's 32 values in a fixed tree; every lane receives its result (a
// butterfly would let lanes combine in different orders and disagree in the last bit).
template <typename C, typename Op>
__device__ C warp_total(C v, Op op) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  }
  return __shfl_sync(0xffffffffu, v, 0);
}

// The block's total: warp totals combined in warp order, the same on every thread.
template <int kThreads, typename C, typename Op>
__device__ C block_total(C v, Op op) {
  __shared__ C warp_totals[kThreads / kWarp];
  v = warp_total(v, op);
  if (threadIdx.x % kWarp == 0) warp_totals[threadIdx.x / kWarp] = v;
  __syncthreads();
  C total = warp_totals[0];
  for (int w = 1; w < kThreads / kWarp; ++w) total = op(total, warp_totals[w]);
  __syncthreads();  // every thread has read warp_totals before the next call rewrites it
  return total;
}

// kSize threads normalizing one line together: member `lane` takes the line's elements lane,
// lane + kSize, ...; total() gives every member the group's combination of their values.
template <int kSize>
struct Group {
  static constexpr int kBlock = std::max(kSize, 256);  // threads per block
  __device__ int lane() const { return static_cast<int>(threadIdx.x) % kSize; }
  template <typename C, typename Op>
  __device__ C total(C v, Op op) const {
    if constexpr (kSize == 1) {
      return v;
    } else if constexpr (kSize == kWarp) {
      return warp_total(v, op);
    } else {
      return block_total<kSize>(v, op);
    }
  }
};

// line(first, s, group) for every line: lines of one block are adjacent, and a group's loop
// over lines is uniform across its members, as its shuffles and barriers need.
template <int kGroup, typename Line>
__global__ void __launch_bounds__(Group<kGroup>::kBlock) lines_kernel(ReduceShape s, Line line) {
  constexpr int kPerBlock = Group<kGroup>::kBlock / kGroup;
  const Group<kGroup> group;
  const int64_t lines = s.outer * s.inner;
  for (int64_t l = static_cast<int64_t>(blockIdx.x) * kPerBlock + threadIdx.x / kGroup; l < lines;
       l += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t o = l / s.inner;
    const int64_t i = l - o * s.inner;
    line(o * s.reduced * s.inner + i, s, group);
  }
}

template <typename T, bool Log>
struct Normalize {
  const T* in;
  T* out;
  template <int kSize>
  __device__ void operator()(int64_t first, ReduceShape s, const Group<kSize>& group) const {
    using C = acc_t<T>;
    const T* x = in + first;
    T* y = out + first;
    const int64_t step = s.inner;
    C m = -::cuda::std::numeric_limits<C>::infinity();
    for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
      m = NanMax{}(m, static_cast<C>(x[r * step]));
    }
    m = group.total(m, NanMax{});
    C total = 0;
    for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
      total += ::cuda::std::exp(static_cast<C>(x[r * step]) - m);
    }
    total = group.total(total, Add{});
    if constexpr (Log) {
      const C log_total = ::cuda::std::log(total);
      for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
        y[r * step] = static_cast<T>((static_cast<C>(x[r * step]) - m) - log_total);
      }
    } else {
      const C scale = C(1) / total;
      for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
        y[r * step] = static_cast<T>(::cuda::std::exp(static_cast<C>(x[r * step]) - m) * scale);
      }
    }
  }
};

// softmax: grad_in = out * (grad - sum(grad * out)); log_softmax: grad_in = grad - exp(out) *
// sum(grad).
template <typename T, bool Log>
struct NormalizeBackward {
  const T* grad;
  const T* out;
  T* grad_in;
  template <int kSize>
  __device__ void operator()(int64_t first, ReduceShape s, const Group<kSize>& group) const {
    using C = acc_t<T>;
    const T* g = grad + first;
    const T* y = out + first;
    T* dx = grad_in + first;
    const int64_t step = s.inner;
    C total = 0;
    for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
      const C gr = static_cast<C>(g[r * step]);
      total += Log ? gr : gr * static_cast<C>(y[r * step]);
    }
    total = group.total(total, Add{});
    for (int64_t r = group.lane(); r < s.reduced; r += kSize) {
      const C gr = static_cast<C>(g[r * step]);
      const C yr = static_cast<C>(y[r * step]);
      dx[r * step] = static_cast<T>(Log ? gr - ::cuda::std::exp(yr) * total : yr * (gr - total));
    }
  }
};

template <int kGroup, typename Line>
void launch_group(ReduceShape s, Line line, cudaStream_t stream) {
  constexpr int64_t kPerBlock = Group<kGroup>::kBlock / kGroup;
  const int64_t lines = s.outer * s.inner;
  const int64_t blocks = std::min<int64_t>((lines + kPerBlock - 1) / kPerBlock, 0x7fffffff);
  lines_kernel<kGroup>
      <<<static_cast<unsigned>(blocks), Group<kGroup>::kBlock, 0, stream>>>(s, line);
}

// Runs `line` over every line of the shape with the group size that suits it.
template <typename Line>
void for_each_line(ReduceShape s, Line line, const Stream& stream, const char* op) {
  const cudaStream_t cuda_stream = launch_stream(stream);
  if (s.outer * s.inner == 0 || s.reduced == 0) return;
  if (s.inner > 1) {
    launch_group<1>(s, line, cuda_stream);
  } else if (s.reduced <= kWarpRowMax) {
    launch_group<kWarp>(s, line, cuda_stream);
  } else {
    launch_group<kRowBlock>(s, line, cuda_stream);
  }
  check_launch(op);
}

}  // namespace

void softmax(ScalarType type, const void* in, void* out, ReduceShape shape, bool log,
             const Stream& stream) {
  const char* op = log ? "log_softmax" : "softmax";
  dispatch_floating(type, op, [&]<typename T>() {
    const auto* x = static_cast<const T*>(in);
    auto* y = static_cast<T*>(out);
    if (log) {
      for_each_line(shape, Normalize<T, true>{x, y}, stream, op);
    } else {
      for_each_line(shape, Normalize<T, false>{x, y}, stream, op);
    }
  });
}

void softmax_backward(ScalarType type, const void* grad, const void* out, void* grad_in,
                      ReduceShape shape, bool log, const Stream& stream) {
  const char* op = log ? "log_softmax_backward" : "softmax_backward";
  dispatch_floating(type, op, [&]<typename T>() {
    const auto* g = static_cast<const T*>(grad);
    const auto* y = static_cast<const T*>(out);
    auto* dx = static_cast<T*>(grad_in);
    if (log) {
      for_each_line(shape, NormalizeBackward<T, true>{g, y, dx}, stream, op);
    } else {
      for_each_line(shape, NormalizeBackward<T, false>{g, y, dx}, stream, op);
    }
  });
}

}  // namespace accel::cuda
