// torch.isclose for one pair of elements, written once for the CPU loops and the CUDA
// kernels: equal values (infinities included) are close; otherwise |a - b| must be finite
// and at most atol + |rtol * b|.
#pragma once

#include <cmath>

#include "accel/base/macros.h"

namespace accel::math {

template <typename T>
ACCEL_INLINE bool is_close(T a, T b, T rtol, T atol, bool equal_nan) {
  if (a == b) return true;
  if (equal_nan && a != a && b != b) return true;
  const T diff = std::abs(a - b);
  return std::isfinite(diff) && diff <= atol + std::abs(rtol * b);
}

}  // namespace accel::math
