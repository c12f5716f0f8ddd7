// Gather and scatter over strided operands. In general the index decides, element by element,
// where each element comes from or goes to; two shapes of the index run faster: a run of one
// index (index_select, index_add and embedding spread their 1-D index along the other dims, so
// a row of the input moves whole), and a contiguous index into one row of the input (gather
// along the last dim), which the compiler turns into vector gathers. Indices are validated by
// the caller (check_indices) before either kernel runs.
#include "accel/kernels/cpu/index.h"

#include <cstring>

#include "accel/base/dispatch.h"

namespace accel::cpu {

void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check) {
  dispatch_index(index_type, check.op, [&]<typename I>() {
    const I* values = static_cast<const I*>(index);
    // One branch-free pass (it vectorizes), then the search for the error only if one failed.
    bool all_inside = true;
    for (int64_t i = 0; i < n; ++i) all_inside &= values[i] >= 0 && values[i] < size;
    if (all_inside) return;
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
            char* out = ptrs[0];
            const char* in = ptrs[1];
            const char* index = ptrs[2];
            if (strides[2] == 0) {  // one index for the run: a strided copy from one place
              const char* from = in + *reinterpret_cast<const I*>(index) * dim_stride;
              if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
                std::memcpy(out, from, static_cast<size_t>(n) * sizeof(T));
                return;
              }
              for (int64_t i = 0; i < n; ++i) {
                *reinterpret_cast<T*>(out + i * strides[0]) =
                    *reinterpret_cast<const T*>(from + i * strides[1]);
              }
              return;
            }
            if (strides[0] == sizeof(T) && strides[1] == 0 && strides[2] == sizeof(I)) {
              // Contiguous positions into one row of the input: vector gathers.
              T* to = reinterpret_cast<T*>(out);
              const I* at = reinterpret_cast<const I*>(index);
              for (int64_t i = 0; i < n; ++i) {
                to[i] = *reinterpret_cast<const T*>(in + at[i] * dim_stride);
              }
              return;
            }
            for (int64_t i = 0; i < n; ++i) {
              const int64_t at = *reinterpret_cast<const I*>(index + i * strides[2]);
              *reinterpret_cast<T*>(out + i * strides[0]) =
                  *reinterpret_cast<const T*>(in + i * strides[1] + at * dim_stride);
            }
          });
    });
  });
}

namespace {

// The columns [first, last) of the loop's innermost dim, every outer position included.
Loop<3> inner_columns(const Loop<3>& loop, int64_t first, int64_t last) {
  Loop<3> columns = loop;
  columns.sizes[0] = last - first;
  for (int k = 0; k < 3; ++k) columns.data[k] += first * loop.strides[k][0];
  columns.numel = loop.numel / loop.sizes[0] * (last - first);
  return columns;
}

}  // namespace

void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t /*dim_size: checked by check_indices*/) {
  const char* name = math::scatter_name(op);
  math::visit(op, [&]<math::ScatterReduce Op>() {
    dispatch_all(dtype, name, [&]<typename T>() {
      dispatch_index(index_type, name, [&]<typename I>() {
        using A = acc_t<T>;
        auto inner = [&](const std::array<char*, 3>& ptrs, const std::array<int64_t, 3>& strides,
                         int64_t n) {
          if (strides[2] == 0) {  // one index for the run: one destination row
            char* row = ptrs[0] + *reinterpret_cast<const I*>(ptrs[2]) * dim_stride;
            for (int64_t i = 0; i < n; ++i) {
              T* dst = reinterpret_cast<T*>(row + i * strides[0]);
              const T src = *reinterpret_cast<const T*>(ptrs[1] + i * strides[1]);
              *dst = static_cast<T>(
                  math::scatter_combine<Op>(static_cast<A>(*dst), static_cast<A>(src)));
            }
            return;
          }
          for (int64_t i = 0; i < n; ++i) {
            const int64_t at = *reinterpret_cast<const I*>(ptrs[2] + i * strides[2]);
            T* dst = reinterpret_cast<T*>(ptrs[0] + i * strides[0] + at * dim_stride);
            const T src = *reinterpret_cast<const T*>(ptrs[1] + i * strides[1]);
            *dst = static_cast<T>(
                math::scatter_combine<Op>(static_cast<A>(*dst), static_cast<A>(src)));
          }
        };
        if (loop.numel == 0) return;
        // Elements landing on one destination combine in the loop's order. Where the index is
        // the same along the innermost dim and self is not, that dim's columns land on
        // different destinations, so threads may take a block of columns each, every one
        // walking the outer dims in order. Otherwise one thread walks the whole loop.
        const int64_t columns = loop.inner_size();
        if (loop.inner_stride(2) == 0 && loop.inner_stride(0) != 0 && columns > 1) {
          const int64_t rows = loop.numel / columns;
          const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / rows);
          parallel_for(0, columns, grain, [&](int64_t first, int64_t last) {
            const Loop<3> block = inner_columns(loop, first, last);
            run_range(block, 0, block.numel, inner);
          });
        } else {
          run_range(loop, 0, loop.numel, inner);
        }
      });
    });
  });
}

}  // namespace accel::cpu
