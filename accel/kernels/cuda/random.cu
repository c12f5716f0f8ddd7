// Philox samples on the GPU: each kernel reserves the same counter blocks as its CPU twin
// (kernels/cpu/random.cpp) and applies the same transforms of kernels/common/philox.h, value
// i landing in element i in row-major order, so a seed gives the same numbers on both devices.
#include <cstddef>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/random.h"
#include "accel/kernels/cuda/device_error.cuh"
#include "accel/kernels/cuda/elementwise.cuh"
#include "accel/kernels/cuda/random.h"

namespace accel::cuda {

using random::PhiloxCursor;
using random::PhiloxDraw;

namespace {

// Thread t draws values [t * V, t * V + V), which share one Philox block (V values per block:
// for normal, the Box-Muller pair 2k, 2k + 1 lies in one block too), so each block is computed
// once. sample(cursor, i, at) writes value i through at[k], operand k's element i.
template <int V, int N, typename Sampler>
__global__ void sample_kernel(Loop<N> loop, PhiloxDraw draw, Sampler sample) {
  const int64_t groups = (loop.numel + V - 1) / V;
  for (int64_t g = global_thread_index(); g < groups; g += grid_stride()) {
    PhiloxCursor cursor(draw);
    const int64_t end = g * V + V < loop.numel ? g * V + V : loop.numel;
    for (int64_t i = g * V; i < end; ++i) {
      int64_t offsets[N];
      element_offsets(loop, i, offsets);
      char* at[N];
#pragma unroll
      for (int k = 0; k < N; ++k) at[k] = loop.data[k] + offsets[k];
      sample(cursor, static_cast<uint64_t>(i), at);
    }
  }
}

template <int V, int N, typename Sampler>
void launch_samples(const Loop<N>& loop, PhiloxDraw draw, Sampler sample, const Stream& stream,
                    const char* op) {
  if (loop.numel == 0) return;
  const int64_t groups = (loop.numel + V - 1) / V;
  sample_kernel<V, N, Sampler>
      <<<blocks_for(groups), kThreadsPerBlock, 0, launch_stream(stream)>>>(loop, draw, sample);
  check_launch(op);
}

// Both devices map a sample onto its range with random::affine_sample: one rounding, whatever
// the compiler's flags.
template <typename T>
struct Uniform {
  using A = acc_t<T>;
  A low, span;
  __device__ void operator()(PhiloxCursor& c, uint64_t i, char* const* at) const {
    const A u = random::uniform_at<A>(c, i, random::kUniformDigits<T>);
    *reinterpret_cast<T*>(at[0]) = static_cast<T>(random::affine_sample(u, span, low));
  }
};

template <typename T>
struct Normal {
  using A = acc_t<T>;
  A center, scale;
  __device__ void operator()(PhiloxCursor& c, uint64_t i, char* const* at) const {
    const A z = random::normal_at<A>(c, i);
    *reinterpret_cast<T*>(at[0]) = static_cast<T>(random::affine_sample(z, scale, center));
  }
};

// Draws Sample<T>{shift, scale} (Uniform or Normal) into `out` for a floating dtype, reserving
// the counter blocks the CPU reserves for the same draw.
template <template <typename> class Sample>
void launch_affine_samples(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                           double shift, double scale, const Stream& stream, const char* op) {
  dispatch_floating(dtype, op, [&]<typename T>() {
    using A = acc_t<T>;
    constexpr int V = random::kValuesPerBlock<A>;
    const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, V));
    const Sample<T> sample{static_cast<A>(shift), static_cast<A>(scale)};
    launch_samples<V>(out, draw, sample, stream, op);
  });
}

template <typename T>
struct Integers {
  int64_t low;
  uint64_t range;
  __device__ void operator()(PhiloxCursor& c, uint64_t i, char* const* at) const {
    *reinterpret_cast<T*>(at[0]) = static_cast<T>(random::integer_at(c, i, low, range));
  }
};

// A probability outside [0, 1] (or NaN) cannot throw here: it is reported, raised at the next
// synchronization, and its element is 0. The op's name is a string literal of the host's
// (the host reads the record; one in device code would point into device memory).
template <typename T, typename P>
struct Bernoulli {
  using A = acc_t<P>;
  const char* op;
  DeviceErrorRecord* record;
  __device__ void operator()(PhiloxCursor& c, uint64_t i, char* const* at) const {
    const A prob = static_cast<A>(*reinterpret_cast<const P*>(at[1]));
    bool one = false;
    if (prob >= 0 && prob <= 1) {
      one = random::uniform_at<A>(c, i, random::kUniformDigits<A>) < prob;
    } else {
      report_device_error(record, DeviceErrorKind::InvalidProbability, op, 0, 0, 0,
                          static_cast<double>(prob));
    }
    *reinterpret_cast<T*>(at[0]) = static_cast<T>(one ? 1 : 0);
  }
};

}  // namespace

void uniform(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
             double to, const Stream& stream) {
  launch_affine_samples<Uniform>(dtype, out, reserve, from, to - from, stream, "uniform_");
}

void normal(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double mean,
            double std, const Stream& stream) {
  launch_affine_samples<Normal>(dtype, out, reserve, mean, std, stream, "normal_");
}

void random_integers(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                     int64_t low, uint64_t range, const Stream& stream) {
  const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, 2));
  dispatch_all(dtype, "randint", [&]<typename T>() {
    launch_samples<2>(out, draw, Integers<T>{low, range}, stream, "randint");
  });
}

void bernoulli(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
               const ReservePhilox& reserve, const Stream& stream) {
  dispatch_floating(p_type, "bernoulli", [&]<typename P>() {
    using A = acc_t<P>;
    constexpr int V = random::kValuesPerBlock<A>;
    const PhiloxDraw draw = reserve(random::philox_blocks(loop.numel, V));
    dispatch_all(out_type, "bernoulli", [&]<typename T>() {
      const Bernoulli<T, P> sample{"bernoulli", device_error_record(stream.device().index)};
      launch_samples<V>(loop, draw, sample, stream, "bernoulli");
    });
  });
}

// Fisher-Yates is sequential: the CPU kernel itself shuffles into host memory (same draw,
// same swaps), then one copy moves the permutation over, as PyTorch does for small n. The
// synchronization keeps the host buffer alive until the copy has read it.
void randperm(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve,
              const Stream& stream) {
  std::vector<std::byte> host(static_cast<size_t>(n * element_size(dtype)));
  cpu::randperm(dtype, host.data(), n, reserve);
  if (host.empty()) return;
  const cudaStream_t s = launch_stream(stream);
  ACCEL_CUDA_CHECK(cudaMemcpyAsync(out, host.data(), host.size(), cudaMemcpyHostToDevice, s),
                   "randperm");
  ACCEL_CUDA_CHECK(cudaStreamSynchronize(s), "randperm");
}

}  // namespace accel::cuda
