// What every CUDA kernel launch needs: the stream (kernels/cuda/launch.h), grid sizes for a
// given amount of work, the grid-stride indexing that covers whatever a capped grid leaves
// over, and a launcher for kernels templated on a floating dtype.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.h"

namespace accel::cuda {

inline constexpr int kThreadsPerBlock = 128;

// Blocks of kThreadsPerBlock threads for `items` work items at one per thread.
inline unsigned blocks_for(int64_t items) {
  constexpr int64_t kMaxBlocks = int64_t{1} << 30;
  return static_cast<unsigned>(
      std::clamp<int64_t>((items + kThreadsPerBlock - 1) / kThreadsPerBlock, 1, kMaxBlocks));
}

// This thread's first work item and the grid's stride, for grid-stride loops.
__device__ inline int64_t global_thread_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline int64_t grid_stride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

// Dispatches a floating dtype and calls launch.template operator()<T>(blocks, stream) for one
// thread per item (nothing for zero items), then checks the launch.
template <typename Launch>
void for_floating(ScalarType dtype, const char* op, int64_t items, const Stream& stream,
                  Launch launch) {
  dispatch_floating(dtype, op, [&]<typename T>() {
    if (items == 0) return;
    launch.template operator()<T>(blocks_for(items), launch_stream(stream));
    check_launch(op);
  });
}

}  // namespace accel::cuda
