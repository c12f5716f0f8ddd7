// The element-wise binary functions, written once for the CPU loops and the CUDA kernels.
// Arguments arrive in the accumulate type (float for Half/BFloat16).
#pragma once

#include <cmath>
#include <type_traits>

#include "accel/base/macros.h"

namespace accel::math {

enum class BinaryOp : int8_t {
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Maximum,
  Minimum,
  Atan2,
  Hypot,
  LogAddExp,
  Fmod,         // the remainder of truncated division: the sign of a (C's fmod, torch.fmod)
  Remainder,    // the remainder of floored division: the sign of b (Python's %)
  FloorDivide,  // floor(a / b)
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
};

constexpr bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq; }
// Ops that divide: on integers, a zero divisor is an error naming the op.
constexpr bool divides(BinaryOp op) {
  return op == BinaryOp::Div || op == BinaryOp::Fmod || op == BinaryOp::Remainder ||
         op == BinaryOp::FloorDivide;
}
constexpr const char* division_name(BinaryOp op) {
  return op == BinaryOp::Fmod          ? "fmod"
         : op == BinaryOp::Remainder   ? "remainder"
         : op == BinaryOp::FloorDivide ? "floor_divide"
                                       : "div";
}

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

// a - b * trunc(a / b) for integers (b nonzero); the one quotient that overflows (the minimum
// over -1) leaves 0.
template <typename T>
ACCEL_INLINE T integer_remainder(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

// The remainder with the divisor's sign, as PyTorch's remainder: fmod, moved by b when the two
// signs differ.
template <typename T>
ACCEL_INLINE T remainder_value(T a, T b) {
  T mod;
  if constexpr (std::is_integral_v<T>) {
    mod = integer_remainder(a, b);
  } else {
    mod = std::fmod(a, b);
  }
  if constexpr (std::is_signed_v<T>) {
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) mod = static_cast<T>(mod + b);
  }
  return mod;
}

// floor(a / b), for floats as PyTorch computes it (from fmod, so exact where a / b rounds up
// to an integer; a zero divisor gives a / b's infinity or NaN).
template <typename T>
ACCEL_INLINE T floor_divide_value(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    const T quotient = integer_quotient(a, b);
    const bool inexact = integer_remainder(a, b) != T(0);
    if constexpr (std::is_signed_v<T>) {
      if (inexact && ((a < T(0)) != (b < T(0)))) return static_cast<T>(quotient - 1);
    }
    return quotient;
  } else {
    if (b == T(0)) return a / b;
    const T mod = std::fmod(a, b);
    T quotient = (a - mod) / b;
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) quotient -= T(1);
    if (quotient == T(0)) return std::copysign(T(0), a / b);
    T floored = std::floor(quotient);
    if (quotient - floored > T(0.5)) floored += T(1);
    return floored;
  }
}

// log(exp(a) + exp(b)) without overflow; equal infinities give themselves.
template <typename T>
ACCEL_INLINE T log_add_exp_value(T a, T b) {
  if (std::isinf(a) && a == b) return a;
  const T larger = a > b ? a : b;
  return larger + std::log1p(std::exp(-std::fabs(a - b)));
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
  // atan2, hypot and logaddexp run on floating types only (integers are converted first).
  if constexpr (Op == BinaryOp::Atan2) return static_cast<T>(std::atan2(a, b));
  if constexpr (Op == BinaryOp::Hypot) return static_cast<T>(std::hypot(a, b));
  if constexpr (Op == BinaryOp::LogAddExp) {
    if constexpr (std::is_floating_point_v<T>) {
      return log_add_exp_value(a, b);
    } else {
      return static_cast<T>(log_add_exp_value<double>(a, b));
    }
  }
  if constexpr (Op == BinaryOp::Fmod) {
    if constexpr (std::is_integral_v<T>) {
      return integer_remainder(a, b);
    } else {
      return std::fmod(a, b);
    }
  }
  if constexpr (Op == BinaryOp::Remainder) return remainder_value(a, b);
  if constexpr (Op == BinaryOp::FloorDivide) return floor_divide_value(a, b);
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
    case BinaryOp::Atan2:
      return f.template operator()<BinaryOp::Atan2>();
    case BinaryOp::Hypot:
      return f.template operator()<BinaryOp::Hypot>();
    case BinaryOp::LogAddExp:
      return f.template operator()<BinaryOp::LogAddExp>();
    case BinaryOp::Fmod:
      return f.template operator()<BinaryOp::Fmod>();
    case BinaryOp::Remainder:
      return f.template operator()<BinaryOp::Remainder>();
    case BinaryOp::FloorDivide:
      return f.template operator()<BinaryOp::FloorDivide>();
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
