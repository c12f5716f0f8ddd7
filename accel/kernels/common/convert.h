// Element conversion between dtypes, written once for the CPU and CUDA copy kernels. It goes
// through the accumulate types (float for Half/BFloat16), so Half -> BFloat16 rounds once from
// float, exactly as PyTorch's conversions do; to bool means "is nonzero"; from floating to
// integer types truncates through int64, so that the CPU and the GPU agree.
#pragma once

#include <cstdint>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"

namespace accel::math {

template <typename Out, typename In>
ACCEL_INLINE Out convert(In v) {
  if constexpr (std::is_same_v<Out, In>) {
    return v;  // bits unchanged, NaN payloads included
  } else if constexpr (std::is_same_v<Out, bool>) {
    return static_cast<acc_t<In>>(v) != acc_t<In>(0);
  } else if constexpr (std::is_integral_v<Out> && std::is_floating_point_v<acc_t<In>>) {
    // Through int64, as PyTorch converts to uint8: C++ leaves a float outside the target's
    // range undefined, and x86 and CUDA do differ there (-1.0 to uint8 is 255 on x86, 0 on a
    // GPU, which saturates); through int64 both wrap, for every value int64 holds.
    return static_cast<Out>(static_cast<int64_t>(static_cast<acc_t<In>>(v)));
  } else {
    return static_cast<Out>(static_cast<acc_t<Out>>(static_cast<acc_t<In>>(v)));
  }
}

}  // namespace accel::math
