// Copy with conversion goes through the accumulate type (float for Half/BFloat16), so
// Half -> BFloat16 rounds once from float, exactly as PyTorch's conversions do.
#include "accel/kernels/cpu/copy.h"

#include <cstring>

#include "accel/base/dispatch.h"

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
      map_elements<Out, In>(loop, [](In v) {
        if constexpr (std::is_same_v<Out, bool>) {
          return static_cast<acc_t<In>>(v) != acc_t<In>(0);
        } else {
          return static_cast<Out>(static_cast<acc_t<Out>>(static_cast<acc_t<In>>(v)));
        }
      });
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
