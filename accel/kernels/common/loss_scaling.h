// Mixed-precision loss scaling, element-wise: unscaling one gradient element and noting
// whether it is finite. The CPU loop and the fused multi-tensor CUDA kernel both call it, so
// the CPU tests cover the rule (a non-finite element flags the whole step as skipped).
#pragma once

#include "accel/base/macros.h"

namespace accel::math {

// g * inv_scale; `found_non_finite` becomes true when g is inf or NaN (x - x is 0 only for
// finite x, which avoids std::isfinite's missing device overloads for Half/BFloat16).
template <typename T, typename A>
ACCEL_INLINE T unscale_gradient(T g, A inv_scale, bool& found_non_finite) {
  const A value = static_cast<A>(g);
  if (!(value - value == A(0))) found_non_finite = true;
  return static_cast<T>(value * inv_scale);
}

}  // namespace accel::math
