// Element conversion between dtypes, written once for the CPU and CUDA copy kernels. It goes
// through the accumulate types (float for Half/BFloat16), so Half -> BFloat16 rounds once from
// float, exactly as PyTorch's conversions do; to bool means "is nonzero".
#pragma once

#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"

namespace accel::math {

template <typename Out, typename In>
ACCEL_INLINE Out convert(In v) {
  if constexpr (std::is_same_v<Out, bool>) {
    return static_cast<acc_t<In>>(v) != acc_t<In>(0);
  } else {
    return static_cast<Out>(static_cast<acc_t<Out>>(static_cast<acc_t<In>>(v)));
  }
}

}  // namespace accel::math
