// The element-wise binary functions, written once for the CPU loops and the CUDA kernels.
// Arguments arrive in the accumulate type (float for Half/BFloat16).
#pragma once

#include <cmath>
#include <type_traits>

#include "accel/base/macros.h"

namespace accel::math {

enum class BinaryOp : int8_t { Add, Sub, Mul, Div, Pow, Maximum, Minimum, Eq, Ne, Lt, Le, Gt, Ge };

constexpr bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq; }

template <typename T>
ACCEL_INLINE T pow_value(T base, T exponent) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (exponent < 0)
        return base == 1 ? T(1) : (base == T(-1) ? (exponent % 2 ? T(-1) : T(1)) : T(0));
    }
    T result = 1;
    while (exponent > 0) {
      if (exponent & 1) result = static_cast<T>(result * base);
      base = static_cast<T>(base * base);
      exponent = static_cast<T>(exponent >> 1);
    }
    return result;
  } else {
    return std::pow(base, exponent);
  }
}

// max/min propagate NaN, as torch.maximum does.
template <typename T>
ACCEL_INLINE T maximum_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a > b ? a : b;
}
template <typename T>
ACCEL_INLINE T minimum_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a < b ? a : b;
}

// a / b for integers (b nonzero), truncating as C++ does; the one quotient that overflows, the
// type's minimum over -1, wraps to the minimum, as a GPU computes it, instead of trapping as
// x86 does.
template <typename T>
ACCEL_INLINE T integer_quotient(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    using Unsigned = std::make_unsigned_t<T>;
    if (b == T(-1)) return static_cast<T>(Unsigned(0) - static_cast<Unsigned>(a));
  }
  return static_cast<T>(a / b);
}

template <BinaryOp Op, typename T>
ACCEL_INLINE auto binary_value(T a, T b) {
  if constexpr (Op == BinaryOp::Add) return static_cast<T>(a + b);
  if constexpr (Op == BinaryOp::Sub) return static_cast<T>(a - b);
  if constexpr (Op == BinaryOp::Mul) return static_cast<T>(a * b);
  if constexpr (Op == BinaryOp::Div) return static_cast<T>(a / b);
  if constexpr (Op == BinaryOp::Pow) return pow_value(a, b);
  if constexpr (Op == BinaryOp::Maximum) return maximum_value(a, b);
  if constexpr (Op == BinaryOp::Minimum) return minimum_value(a, b);
  if constexpr (Op == BinaryOp::Eq) return a == b;
  if constexpr (Op == BinaryOp::Ne) return a != b;
  if constexpr (Op == BinaryOp::Lt) return a < b;
  if constexpr (Op == BinaryOp::Le) return a <= b;
  if constexpr (Op == BinaryOp::Gt) return a > b;
  if constexpr (Op == BinaryOp::Ge) return a >= b;
}

// Calls f.template operator()<Op>() with `op` as a compile-time value (host-side dispatch).
template <typename F>
decltype(auto) visit(BinaryOp op, F&& f) {
  switch (op) {
    case BinaryOp::Add:
      return f.template operator()<BinaryOp::Add>();
    case BinaryOp::Sub:
      return f.template operator()<BinaryOp::Sub>();
    case BinaryOp::Mul:
      return f.template operator()<BinaryOp::Mul>();
    case BinaryOp::Div:
      return f.template operator()<BinaryOp::Div>();
    case BinaryOp::Pow:
      return f.template operator()<BinaryOp::Pow>();
    case BinaryOp::Maximum:
      return f.template operator()<BinaryOp::Maximum>();
    case BinaryOp::Minimum:
      return f.template operator()<BinaryOp::Minimum>();
    case BinaryOp::Eq:
      return f.template operator()<BinaryOp::Eq>();
    case BinaryOp::Ne:
      return f.template operator()<BinaryOp::Ne>();
    case BinaryOp::Lt:
      return f.template operator()<BinaryOp::Lt>();
    case BinaryOp::Le:
      return f.template operator()<BinaryOp::Le>();
    case BinaryOp::Gt:
      return f.template operator()<BinaryOp::Gt>();
    case BinaryOp::Ge:
      return f.template operator()<BinaryOp::Ge>();
  }
  __builtin_unreachable();  // every enumerator is handled above
}

}  // namespace accel::math
