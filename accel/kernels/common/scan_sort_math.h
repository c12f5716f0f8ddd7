// What the scan (cumulative sum and product) and sort kernels share between the CPU and CUDA:
// the type a running sum or product accumulates in, how it takes the next term, and the order
// sort, argsort and topk put elements in.
#pragma once

#include <cstdint>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"

namespace accel::math {

// As PyTorch's CPU cumsum and cumprod: double for float32 and float64, float for 16-bit floats,
// int64 for integers (whose sums and products wrap).
template <typename T>
using scan_accumulate_t =
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_integral_v<T>, int64_t, float>>;

// The running value a scan starts from and how it takes the next term. Integers wrap, computed
// unsigned (a signed overflow would be undefined).
enum class ScanOp { kSum, kProduct };

template <ScanOp Op, typename Acc>
ACCEL_INLINE constexpr Acc scan_identity() {
  return Op == ScanOp::kSum ? Acc(0) : Acc(1);
}

template <ScanOp Op, typename Acc>
ACCEL_INLINE Acc scan_combine(Acc running, Acc term) {
  if constexpr (std::is_integral_v<Acc>) {
    using U = std::make_unsigned_t<Acc>;
    const U a = static_cast<U>(running), b = static_cast<U>(term);
    return static_cast<Acc>(Op == ScanOp::kSum ? U(a + b) : U(a * b));
  } else {
    return Op == ScanOp::kSum ? running + term : running * term;
  }
}

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
