// Sorting on the GPU with CUB's stable merge sort. Every element gets a key c * reduced + r,
// c = o * inner + i being its column; the keys start in increasing order and are sorted by
// column, then by value in math::sorts_before's order, so each column's keys end up together
// (in column order) with ties in order of r: the CPU kernel's order exactly. A second kernel
// writes each column's first k r into the [outer, k, inner] indices.
#include <cub/device/device_merge_sort.cuh>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/sort.h"
#include "accel/kernels/cuda/stream_buffer.h"

namespace accel::cuda {

namespace {

// The direction is a member rather than a template argument: CUB's merge sort is costly to
// compile, once per dtype is enough.
template <typename T>
struct ColumnThenValue {
  const T* in;
  ReduceShape s;
  bool descending;

  __device__ acc_t<T> value(int64_t key) const {
    const int64_t c = key / s.reduced;
    const int64_t r = key % s.reduced;
    return static_cast<acc_t<T>>(in[(c / s.inner * s.reduced + r) * s.inner + c % s.inner]);
  }
  __device__ bool operator()(int64_t a, int64_t b) const {
    const int64_t column_a = a / s.reduced;
    const int64_t column_b = b / s.reduced;
    if (column_a != column_b) return column_a < column_b;
    return descending ? math::sorts_before<true>(value(a), value(b))
                      : math::sorts_before<false>(value(a), value(b));
  }
};

__global__ void iota_kernel(int64_t* keys, int64_t n) {
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) keys[e] = e;
}

// indices[o, j, i] = the r of sorted key j of column o * inner + i.
__global__ void first_k_kernel(const int64_t* sorted, int64_t* indices, ReduceShape s, int64_t k) {
  const int64_t n = s.outer * k * s.inner;
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) {
    const int64_t o = e / (k * s.inner);
    const int64_t j = e / s.inner % k;
    const int64_t column = o * s.inner + e % s.inner;
    indices[e] = sorted[column * s.reduced + j] % s.reduced;
  }
}

template <typename T>
void sort_keys(const T* in, int64_t* keys, int64_t n, ReduceShape s, bool descending,
               cudaStream_t stream) {
  const ColumnThenValue<T> order{in, s, descending};
  size_t scratch_bytes = 0;
  ACCEL_CUDA_CHECK(
      cub::DeviceMergeSort::StableSortKeys(nullptr, scratch_bytes, keys, n, order, stream), "sort");
  const StreamBuffer scratch(static_cast<int64_t>(scratch_bytes), stream, "sort");
  ACCEL_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeys(scratch.get<void>(), scratch_bytes, keys, n,
                                                        order, stream),
                   "sort");
}

}  // namespace

void sort(ScalarType type, const void* in, int64_t* indices, ReduceShape shape, int64_t k,
          bool descending, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const int64_t n = shape.outer * shape.reduced * shape.inner;
  if (n == 0 || k == 0) return;
  dispatch_all(type, "sort", [&]<typename T>() {
    const StreamBuffer keys(n * static_cast<int64_t>(sizeof(int64_t)), s, "sort");
    iota_kernel<<<blocks_for(n), kThreadsPerBlock, 0, s>>>(keys.get<int64_t>(), n);
    check_launch("sort");
    sort_keys(static_cast<const T*>(in), keys.get<int64_t>(), n, shape, descending, s);
    first_k_kernel<<<blocks_for(shape.outer * k * shape.inner), kThreadsPerBlock, 0, s>>>(
        keys.get<int64_t>(), indices, shape, k);
    check_launch("sort");
  });
}

}  // namespace accel::cuda
