// Indexing along one dim on the GPU: the asynchronous range check, gather, and a scatter that
// combines repeated destinations in the CPU's order (kernels/cpu/index.cpp), so both devices
// give the same bits, with no atomics. Contracts in kernels/backend.h.
#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/device_error.cuh"
#include "accel/kernels/cuda/elementwise.cuh"
#include "accel/kernels/cuda/index.h"

namespace accel::cuda {

namespace {

// Enough blocks to fill an H200 or A100 at full occupancy; grid-stride loops cover the rest.
// Capping the grid bounds how many error reports one launch can make.
constexpr unsigned kMaxBlocks = 2048;

unsigned capped_blocks(int64_t items) { return std::min(blocks_for(items), kMaxBlocks); }

// Warps step through the indices together (the loop bound is the same for every lane), so
// the ballot sees all 32 lanes; one lane per failing warp reports, then the warp stops: a
// tensor full of bad indices costs a few thousand reports, not one per index.
template <typename I>
__global__ void check_indices_kernel(const I* index, int64_t n, int64_t size, IndexCheck check,
                                     DeviceErrorRecord* record) {
  for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x; base < n;
       base += grid_stride()) {
    const int64_t i = base + threadIdx.x;
    const int64_t value = i < n ? static_cast<int64_t>(index[i]) : 0;
    const bool bad = i < n && (value < 0 || value >= size);
    const unsigned bad_lanes = __ballot_sync(0xffffffffu, bad);
    if (bad_lanes == 0) continue;
    if (static_cast<int>(threadIdx.x % 32) == __ffs(static_cast<int>(bad_lanes)) - 1) {
      report_device_error(record, DeviceErrorKind::IndexOutOfRange, check.op, value, size,
                          check.dim);
    }
    return;
  }
}

// gather and scatter test every index themselves (the ops run no check_indices before them).
// An index outside [0, dim_size) is reported once per thread, so reports stay bounded by the
// grid however many indices are bad. `check.op` is a string literal of the host's, which reads
// the record.
struct IndexRange {
  int64_t dim_size;
  IndexCheck check;
  DeviceErrorRecord* record;

  __device__ bool holds(int64_t at, bool& reported) const {
    if (at >= 0 && at < dim_size) return true;
    if (!reported) {
      report_device_error(record, DeviceErrorKind::IndexOutOfRange, check.op, at, dim_size,
                          check.dim);
      reported = true;
    }
    return false;
  }
};

// An element whose index is out of range is zero.
template <typename T, typename I>
__global__ void gather_kernel(Loop<3> loop, int64_t dim_stride, IndexRange range) {
  bool reported = false;
  for (int64_t i = global_thread_index(); i < loop.numel; i += grid_stride()) {
    int64_t offsets[3];
    element_offsets(loop, i, offsets);
    const int64_t at = *reinterpret_cast<const I*>(loop.data[2] + offsets[2]);
    T value{};
    if (range.holds(at, reported)) {
      value = *reinterpret_cast<const T*>(loop.data[1] + offsets[1] + at * dim_stride);
    }
    *reinterpret_cast<T*>(loop.data[0] + offsets[0]) = value;
  }
}

// Why this gives the CPU's bits. The CPU combines src[i] into self[index[i]] for every element
// i of the loop in row-major order on one thread, each result rounded to T. Self is a tensor
// the op allocated (a clone, or zeros), so distinct coordinates address distinct elements:
// two elements of the loop can reach the same destination only if their coordinates agree on
// every dim along which self moves (operand 0's stride is nonzero). They may differ only
// along the "step" dims where operand 0's stride is 0: the indexed dim (its stride was
// zeroed), plus any dim self is broadcast along. So the loop splits into lines: one per
// combination of the coordinates along which self moves, holding every element that combination
// admits. Lines write disjoint destinations, so one thread per line needs no atomics. Within a
// line the thread walks the step dims in row-major order, and with the line's own coordinates
// fixed, the CPU's linear index grows exactly in that order. So each destination receives the
// same values, in the same order, with the same roundings as on the CPU.
//
// index_select's gradient (embedding backward) is the case this is shaped for: self [V, D],
// index [N] spread to [N, D]. Self moves along D only, so there are D lines, each walking N
// in order; neighbouring threads take neighbouring columns, so their reads and writes coalesce.
struct Lines {
  Loop<3> lines;  // the dims self moves along: one thread per element of this loop
  Loop<3> steps;  // the rest, walked by each thread in order (operand 0 stride 0)
};

Lines split_lines(const Loop<3>& loop) {
  Lines s{loop, loop};
  s.lines.ndim = s.steps.ndim = 0;
  s.lines.numel = s.steps.numel = 1;
  for (int d = 0; d < loop.ndim; ++d) {
    Loop<3>& part = loop.strides[0][d] != 0 ? s.lines : s.steps;
    part.sizes[part.ndim] = loop.sizes[d];
    for (int k = 0; k < 3; ++k) part.strides[k][part.ndim] = loop.strides[k][d];
    part.numel *= loop.sizes[d];
    ++part.ndim;
  }
  return s;
}

// An element whose index is out of range changes nothing.
template <math::ScatterReduce Op, typename T, typename I>
__global__ void scatter_kernel(Lines split, int64_t dim_stride, IndexRange range) {
  using A = acc_t<T>;
  bool reported = false;
  const Loop<3>& lines = split.lines;
  const Loop<3>& steps = split.steps;
  for (int64_t line = global_thread_index(); line < lines.numel; line += grid_stride()) {
    int64_t base[3];
    element_offsets(lines, line, base);
    char* const self = lines.data[0] + base[0];
    const char* const src = lines.data[1] + base[1];
    const char* const index = lines.data[2] + base[2];
    for (int64_t j = 0; j < steps.numel; ++j) {
      int64_t step[3];
      element_offsets(steps, j, step);
      const int64_t at = *reinterpret_cast<const I*>(index + step[2]);
      if (!range.holds(at, reported)) continue;
      T* const dst = reinterpret_cast<T*>(self + step[0] + at * dim_stride);
      const T value = *reinterpret_cast<const T*>(src + step[1]);
      *dst = static_cast<T>(math::scatter_combine<Op>(static_cast<A>(*dst), static_cast<A>(value)));
    }
  }
}

}  // namespace

void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check, const Stream& stream) {
  dispatch_index(index_type, check.op, [&]<typename I>() {
    if (n == 0) return;
    const cudaStream_t s = launch_stream(stream);
    check_indices_kernel<I><<<capped_blocks(n), kThreadsPerBlock, 0, s>>>(
        static_cast<const I*>(index), n, size, check, device_error_record(stream.device().index));
    check_launch(check.op);
  });
}

void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
            int64_t dim_size, IndexCheck check, const Stream& stream) {
  dispatch_all(dtype, check.op, [&]<typename T>() {
    dispatch_index(index_type, check.op, [&]<typename I>() {
      if (loop.numel == 0) return;
      const cudaStream_t s = launch_stream(stream);
      gather_kernel<T, I><<<capped_blocks(loop.numel), kThreadsPerBlock, 0, s>>>(
          loop, dim_stride, {dim_size, check, device_error_record(stream.device().index)});
      check_launch(check.op);
    });
  });
}

void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t dim_size, IndexCheck check, const Stream& stream) {
  math::visit(op, [&]<math::ScatterReduce Op>() {
    dispatch_all(dtype, check.op, [&]<typename T>() {
      dispatch_index(index_type, check.op, [&]<typename I>() {
        if (loop.numel == 0) return;
        const Lines split = split_lines(loop);
        const cudaStream_t s = launch_stream(stream);
        scatter_kernel<Op, T, I><<<capped_blocks(split.lines.numel), kThreadsPerBlock, 0, s>>>(
            split, dim_stride, {dim_size, check, device_error_record(stream.device().index)});
        check_launch(check.op);
      });
    });
  });
}

}  // namespace accel::cuda
