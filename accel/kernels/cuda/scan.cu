// Cumulative sums, products, log-sum-exps, maxima and minima on the GPU: one thread per column (o,
// :, i) walks r in order, in the CPU kernel's accumulate type, so both devices give the same bits.
// Adjacent threads take adjacent i, so each step reads and writes consecutive elements when inner
// is large; a few long contiguous rows (inner == 1) run serially, one thread each.
#include "accel/base/dispatch.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/scan.h"

namespace accel::cuda {

namespace {

template <math::ScanOp Op, typename T>
__global__ void scan_kernel(const T* in, T* out, ReduceShape s) {
  using Acc = math::scan_accumulate_t<T>;
  const int64_t columns = s.outer * s.inner;
  for (int64_t c = global_thread_index(); c < columns; c += grid_stride()) {
    const int64_t first = c / s.inner * s.reduced * s.inner + c % s.inner;
    Acc running = math::scan_identity<Op, Acc>();
    for (int64_t r = 0; r < s.reduced; ++r) {
      const int64_t e = first + r * s.inner;
      running = math::scan_combine<Op>(running, static_cast<Acc>(in[e]));
      out[e] = static_cast<T>(running);
    }
  }
}

}  // namespace

void scan(ScalarType type, math::ScanOp op, const void* in, void* out, ReduceShape shape,
          const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const char* name = math::scan_name(op);
  math::visit(op, [&]<math::ScanOp Op>() {
    dispatch_numeric(type, name, [&]<typename T>() {
      const int64_t columns = shape.outer * shape.inner;
      if (columns == 0 || shape.reduced == 0) return;
      scan_kernel<Op, T><<<blocks_for(columns), kThreadsPerBlock, 0, s>>>(
          static_cast<const T*>(in), static_cast<T*>(out), shape);
      check_launch(name);
    });
  });
}

}  // namespace accel::cuda
