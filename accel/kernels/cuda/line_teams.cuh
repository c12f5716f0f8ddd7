// How the GPU kernels that reduce along r of the [outer, reduced, inner] view and then use the
// result along the same line (softmax, cross-entropy) share out the work: each line (o, :, i)
// goes to one team of threads, which combines its members' values in a fixed tree.
//
// A team is a warp per row when rows are contiguous (inner == 1) and short, as classifier
// logits are; a 512-thread block per longer row; one thread per line when inner > 1, adjacent
// threads taking adjacent i so that their reads coalesce. With no atomics and a fixed order of
// combination, every run gives the same bits.
#pragma once

#include <algorithm>
#include <cstdint>

#include "accel/kernels/common/reduce_shape.h"
#include "accel/kernels/cuda/cuda_check.h"
#include "accel/kernels/cuda/launch.cuh"

namespace accel::cuda {

inline constexpr int kWarp = 32;
inline constexpr int kLongRowTeam = 512;         // threads sharing one long row
inline constexpr int64_t kWarpRowMax = 1024;     // the longest row a warp takes (32 per lane)
inline constexpr int64_t kMaxLineBlocks = 4096;  // grid-stride loops cover the lines beyond

// Lane 0 combines the warp's 32 values in a fixed tree; every lane receives its result (a
// butterfly would let lanes combine in different orders and disagree in the last bit).
template <typename C, typename Op>
__device__ C warp_combine(C v, Op op) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  }
  return __shfl_sync(0xffffffffu, v, 0);
}

// The block's combination: the warps' results combined in warp order, the same on every thread.
template <int kThreads, typename C, typename Op>
__device__ C block_combine(C v, Op op) {
  __shared__ C per_warp[kThreads / kWarp];
  v = warp_combine(v, op);
  if (threadIdx.x % kWarp == 0) per_warp[threadIdx.x / kWarp] = v;
  __syncthreads();
  C total = per_warp[0];
  for (int w = 1; w < kThreads / kWarp; ++w) total = op(total, per_warp[w]);
  __syncthreads();  // every thread has read per_warp before a later call rewrites it
  return total;
}

// kSize threads handling one line together: member rank() takes the line's elements rank(),
// rank() + kSize, ...; combine() hands every member the combination of the members' values.
template <int kSize>
struct Team {
  static constexpr int kThreads = std::max(kSize, 256);  // per block
  static constexpr int kPerBlock = kThreads / kSize;

  __device__ int rank() const { return static_cast<int>(threadIdx.x) % kSize; }

  template <typename C, typename Op>
  __device__ C combine(C v, Op op) const {
    if constexpr (kSize == 1) {
      return v;
    } else if constexpr (kSize == kWarp) {
      return warp_combine(v, op);
    } else {
      return block_combine<kSize>(v, op);
    }
  }
};

struct Plus {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    return a + b;
  }
};

// A line's elements within one tensor: element r at [r].
template <typename T>
struct Strided {
  T* data;
  int64_t step;
  __device__ T& operator[](int64_t r) const { return data[r * step]; }
};

// Where a line lies: its elements r = 0 .. length - 1 at first + r * step.
struct Line {
  int64_t index;   // o * inner + i: the line's place among the outputs
  int64_t first;   // the offset of its element 0
  int64_t step;    // inner
  int64_t length;  // reduced

  template <typename T>
  __device__ Strided<T> of(T* base) const {
    return {base + first, step};
  }
};

// per_line(line, team) for every line. Each thread has its own copy of per_line (a kernel
// parameter), so the functor may keep per-thread state across the lines a thread takes. A
// team's loop bound is the same for all its members, as its shuffles and barriers need.
template <int kSize, typename PerLine>
__global__ void __launch_bounds__(Team<kSize>::kThreads)
    lines_kernel(ReduceShape s, PerLine per_line) {
  constexpr int kPerBlock = Team<kSize>::kPerBlock;
  const Team<kSize> team;
  const int64_t lines = s.outer * s.inner;
  for (int64_t l = static_cast<int64_t>(blockIdx.x) * kPerBlock + threadIdx.x / kSize; l < lines;
       l += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t o = l / s.inner;
    per_line(Line{l, o * s.reduced * s.inner + (l - o * s.inner), s.inner, s.reduced}, team);
  }
}

template <int kSize, typename PerLine>
void launch_teams(ReduceShape s, const PerLine& per_line, cudaStream_t stream) {
  constexpr int64_t kPerBlock = Team<kSize>::kPerBlock;
  const int64_t blocks = std::min((s.outer * s.inner + kPerBlock - 1) / kPerBlock, kMaxLineBlocks);
  lines_kernel<kSize>
      <<<static_cast<unsigned>(blocks), Team<kSize>::kThreads, 0, stream>>>(s, per_line);
}

// Runs per_line over every line of the shape, with the team size that suits its layout; `op`
// names the kernel in a launch error.
template <typename PerLine>
void for_each_line(ReduceShape s, const PerLine& per_line, const Stream& stream, const char* op) {
  const cudaStream_t cuda_stream = launch_stream(stream);
  if (s.outer * s.inner == 0) return;
  if (s.inner > 1) {
    launch_teams<1>(s, per_line, cuda_stream);
  } else if (s.reduced <= kWarpRowMax) {
    launch_teams<kWarp>(s, per_line, cuda_stream);
  } else {
    launch_teams<kLongRowTeam>(s, per_line, cuda_stream);
  }
  check_launch(op);
}

}  // namespace accel::cuda
