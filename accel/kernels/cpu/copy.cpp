// Copy with conversion (kernels/common/convert.h's rule) and fill, over strided CPU loops; a
// same-dtype contiguous copy is a memcpy.
#include "accel/kernels/cpu/copy.h"

#include <cstring>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/convert.h"

namespace accel::cpu {

void copy(ScalarType out_type, ScalarType in_type, const Loop<2>& loop) {
  if (out_type == in_type && loop.ndim <= 1 && loop.inner_stride(0) == element_size(out_type) &&
      loop.inner_stride(1) == element_size(in_type)) {
    const int64_t bytes = element_size(out_type);
    run(loop, [&](const std::array<char*, 2>& ptrs, const std::array<int64_t, 2>&, int64_t n) {
      std::memcpy(ptrs[0], ptrs[1], static_cast<size_t>(n * bytes));
    });
    return;
  }
  dispatch_all(out_type, "copy", [&]<typename Out>() {
    dispatch_all(in_type, "copy", [&]<typename In>() {
      map_elements<Out, In>(loop, [](In v) { return math::convert<Out, In>(v); });
    });
  });
}

void fill(ScalarType type, const Loop<1>& loop, const void* value) {
  dispatch_all(type, "fill", [&]<typename T>() {
    T v;
    std::memcpy(&v, value, sizeof(T));
    run(loop,
        [&](const std::array<char*, 1>& ptrs, const std::array<int64_t, 1>& strides, int64_t n) {
          if (strides[0] == sizeof(T)) {
            T* out = reinterpret_cast<T*>(ptrs[0]);
            for (int64_t i = 0; i < n; ++i) out[i] = v;
          } else {
            for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(ptrs[0] + i * strides[0]) = v;
          }
        });
  });
}

}  // namespace accel::cpu
