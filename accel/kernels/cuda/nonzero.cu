// nonzero on the GPU: each element's output row is the number of true elements before it (an
// exclusive sum of the flags, by CUB's device scan), so every true element writes its own
// coordinates independently, in row-major order like the CPU's.
#include <cub/device/device_scan.cuh>

#include "accel/base/error.h"
#include "accel/kernels/common/loop.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/nonzero.h"
#include "accel/kernels/cuda/stream_buffer.h"

namespace accel::cuda {

namespace {

// The input's shape, passed by value to the kernel.
struct FlagShape {
  int dims;
  int64_t sizes[kMaxLoopDims];
};

__global__ void flags_as_counts_kernel(const bool* flags, int64_t* counts, int64_t n) {
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) counts[e] = flags[e] ? 1 : 0;
}

// Row rows_before[e] of out = element e's coordinates, for each true element e.
__global__ void coordinates_kernel(const bool* flags, const int64_t* rows_before, int64_t n,
                                   FlagShape shape, int64_t* out) {
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) {
    if (!flags[e]) continue;
    int64_t* row = out + rows_before[e] * shape.dims;
    int64_t rest = e;
    for (int d = shape.dims - 1; d >= 0; --d) {
      row[d] = rest % shape.sizes[d];
      rest /= shape.sizes[d];
    }
  }
}

}  // namespace

void nonzero(const bool* flags, IntArrayRef sizes, int64_t count, int64_t* out,
             const Stream& stream) {
  if (sizes.empty() || count == 0) return;  // a 0-dim input's rows have no coordinates
  ACCEL_CHECK(sizes.size() <= static_cast<size_t>(kMaxLoopDims), "nonzero",
              "a CUDA tensor of {} dims has more than {}", sizes.size(), kMaxLoopDims);
  FlagShape shape{static_cast<int>(sizes.size()), {}};
  int64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    shape.sizes[d] = sizes[d];
    n *= sizes[d];
  }
  const cudaStream_t s = launch_stream(stream);
  const auto bytes = n * static_cast<int64_t>(sizeof(int64_t));
  const StreamBuffer counts(bytes, s, "nonzero");
  const StreamBuffer rows_before(bytes, s, "nonzero");
  flags_as_counts_kernel<<<blocks_for(n), kThreadsPerBlock, 0, s>>>(flags, counts.get<int64_t>(),
                                                                    n);
  check_launch("nonzero");
  size_t scratch_bytes = 0;
  ACCEL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, counts.get<int64_t>(),
                                                 rows_before.get<int64_t>(), n, s),
                   "nonzero");
  const StreamBuffer scratch(static_cast<int64_t>(scratch_bytes), s, "nonzero");
  ACCEL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch.get<void>(), scratch_bytes, counts.get<int64_t>(),
                                    rows_before.get<int64_t>(), n, s),
      "nonzero");
  coordinates_kernel<<<blocks_for(n), kThreadsPerBlock, 0, s>>>(flags, rows_before.get<int64_t>(),
                                                                n, shape, out);
  check_launch("nonzero");
}

}  // namespace accel::cuda
