// What the scan (cumulative sum, product, log-sum-exp, maximum and minimum) and sort kernels
// share between the CPU and CUDA: the type a running value accumulates in, how it takes the
// next term, and the order sort, argsort and topk put elements in.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"
#include "accel/kernels/common/binary_math.h"

namespace accel::math {

// As PyTorch's CPU cumsum and cumprod: double for float32 and float64, float for 16-bit floats,
// int64 for integers (whose sums and products wrap).
template <typename T>
using scan_accumulate_t =
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_integral_v<T>, int64_t, float>>;

// The running value a scan starts from and how it takes the next term. Integers wrap, computed
// unsigned (a signed overflow would be undefined); a NaN stays in a running maximum or minimum;
// log-sum-exp runs on floating types only.
enum class ScanOp { kSum, kProduct, kLogSumExp, kMax, kMin };

// The op's name in errors.
constexpr const char* scan_name(ScanOp op) {
  constexpr const char* kNames[] = {"cumsum", "cumprod", "logcumsumexp", "cummax", "cummin"};
  return kNames[static_cast<int>(op)];
}

template <ScanOp Op, typename Acc>
ACCEL_INLINE constexpr Acc scan_identity() {
  using limits = std::numeric_limits<Acc>;
  if constexpr (Op == ScanOp::kSum) return Acc(0);
  if constexpr (Op == ScanOp::kProduct) return Acc(1);
  if constexpr (Op == ScanOp::kMin)
    return limits::has_infinity ? limits::infinity() : limits::max();
  return limits::has_infinity ? -limits::infinity() : limits::lowest();
}

template <ScanOp Op, typename Acc>
ACCEL_INLINE Acc scan_combine(Acc running, Acc term) {
  if constexpr (Op == ScanOp::kMax) {
    return maximum_value(running, term);
  } else if constexpr (Op == ScanOp::kMin) {
    return minimum_value(running, term);
  } else if constexpr (Op == ScanOp::kLogSumExp) {
    if constexpr (std::is_floating_point_v<Acc>) {
      return log_add_exp_value(running, term);
    } else {
      return running;  // never called: the op takes floating inputs only
    }
  } else if constexpr (std::is_integral_v<Acc>) {
    using U = std::make_unsigned_t<Acc>;
    const U a = static_cast<U>(running), b = static_cast<U>(term);
    return static_cast<Acc>(Op == ScanOp::kSum ? U(a + b) : U(a * b));
  } else {
    return Op == ScanOp::kSum ? running + term : running * term;
  }
}

// Calls f.template operator()<Op>() for the runtime op.
template <typename F>
decltype(auto) visit(ScanOp op, F&& f) {
  switch (op) {
    case ScanOp::kSum:
      return f.template operator()<ScanOp::kSum>();
    case ScanOp::kProduct:
      return f.template operator()<ScanOp::kProduct>();
    case ScanOp::kLogSumExp:
      return f.template operator()<ScanOp::kLogSumExp>();
    case ScanOp::kMax:
      return f.template operator()<ScanOp::kMax>();
    case ScanOp::kMin:
      return f.template operator()<ScanOp::kMin>();
  }
  __builtin_unreachable();  // every enumerator is handled above
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
