// What the cumulative-sum and sort kernels share between the CPU and CUDA: the type a running
// sum accumulates in, and the order sort, argsort and topk put elements in.
#pragma once

#include <cstdint>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"

namespace accel::math {

// As PyTorch's CPU cumsum: double for float32 and float64, float for 16-bit floats, int64 for
// integers (whose sums wrap).
template <typename T>
using scan_accumulate_t =
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_integral_v<T>, int64_t, float>>;

// Whether a comes before b in an ascending (or descending) sort. NaN orders above every number,
// as in PyTorch: last in an ascending sort, first in a descending one. Elements that neither
// comes before keep their order (the kernels' sorts are stable).
template <bool Descending, typename C>
ACCEL_INLINE bool sorts_before(C a, C b) {
  if constexpr (Descending) {
    return !(b != b) && (a != a || b < a);
  } else {
    return !(a != a) && (b != b || a < b);
  }
}

}  // namespace accel::math
