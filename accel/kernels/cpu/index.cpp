// Gather and scatter over strided operands, element by element: the index decides where
// each element comes from or goes to, so there is no contiguous fast path to take. Indices
// are validated by the caller (check_indices) before either kernel runs.
#include "accel/kernels/cpu/index.h"

#include "accel/base/dispatch.h"

namespace accel::cpu {

void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check) {
  dispatch_index(index_type, check.op, [&]<typename I>() {
    const I* values = static_cast<const I*>(index);
    for (int64_t i = 0; i < n; ++i) {
      ACCEL_CHECK(values[i] >= 0 && values[i] < size, check.op,
                  "index {} is out of bounds for dimension {} with size {}",
                  static_cast<int64_t>(values[i]), check.dim, size);
    }
  });
}

void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
            int64_t /*dim_size: checked by check_indices*/) {
  dispatch_all(dtype, "gather", [&]<typename T>() {
    dispatch_index(index_type, "gather", [&]<typename I>() {
      run(loop,
          [&](const std::array<char*, 3>& ptrs, const std::array<int64_t, 3>& strides, int64_t n) {
            for (int64_t i = 0; i < n; ++i) {
              const int64_t at = *reinterpret_cast<const I*>(ptrs[2] + i * strides[2]);
              *reinterpret_cast<T*>(ptrs[0] + i * strides[0]) =
                  *reinterpret_cast<const T*>(ptrs[1] + i * strides[1] + at * dim_stride);
            }
          });
    });
  });
}

void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t /*dim_size: checked by check_indices*/) {
  const char* name = math::scatter_name(op);
  math::visit(op, [&]<math::ScatterReduce Op>() {
    dispatch_all(dtype, name, [&]<typename T>() {
      dispatch_index(index_type, name, [&]<typename I>() {
        using A = acc_t<T>;
        auto inner = [&](const std::array<char*, 3>& ptrs, const std::array<int64_t, 3>& strides,
                         int64_t n) {
          for (int64_t i = 0; i < n; ++i) {
            const int64_t at = *reinterpret_cast<const I*>(ptrs[2] + i * strides[2]);
            T* dst = reinterpret_cast<T*>(ptrs[0] + i * strides[0] + at * dim_stride);
            const T src = *reinterpret_cast<const T*>(ptrs[1] + i * strides[1]);
            *dst = static_cast<T>(
                math::scatter_combine<Op>(static_cast<A>(*dst), static_cast<A>(src)));
          }
        };
        // One thread: destinations repeat.
        if (loop.numel > 0) run_range(loop, 0, loop.numel, inner);
      });
    });
  });
}

}  // namespace accel::cpu
