// The element-wise unary functions and their derivatives, written once for the CPU loops and
// the CUDA kernels: one struct per op holding its forward and backward side by side, with
// PyTorch's formulas. Arguments arrive in the accumulate type (float for Half/BFloat16), or on
// the CPU as vectors of it (kernels/cpu/vector_math.h): the formulas call exp, log, sin, cos,
// tanh, erf, sqrt and the others unqualified, so a vector argument finds its own versions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/common/special_math.h"

namespace accel::math {

using std::acos;
using std::acosh;
using std::asin;
using std::asinh;
using std::atan;
using std::atanh;
using std::cos;
using std::cosh;
using std::erf;
using std::erfc;
using std::exp;
using std::exp2;
using std::expm1;
using std::log;
using std::log10;
using std::log1p;
using std::log2;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;

enum class UnaryOp : int8_t {
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Abs,
  Sin,
  Cos,
  Tanh,
  Sigmoid,
  Relu,
  Gelu,      // exact: x * Phi(x)
  GeluTanh,  // gelu(approximate="tanh")
  Silu,
  Log1p,
  Expm1,
  Erf,
  Floor,
  Ceil,
  Round,  // halves to even, as torch.round
  Trunc,
  Sign,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Log2,
  Log10,
  Exp2,
  Erfc,
  Erfinv,
  Lgamma,
  Digamma,
};

// What an op does with integer and bool inputs (PyTorch's rule for that op).
enum class IntegerInputs : int8_t {
  Keep,     // computes in the input's integer type; bool is rejected (abs, relu)
  ToFloat,  // computes in the default float type (exp, log, ...)
  Reject,   // floating inputs only (gelu, silu)
};

// Each op: `name`; `integer_inputs`; `grad_uses_output` (backward(grad, s) receives the op's
// output as s, else its input).

struct Exp {
  static constexpr const char* name = "exp";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return exp(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * y;
  }
};

struct Log {
  static constexpr const char* name = "log";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return log(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / x;
  }
};

struct Sqrt {
  static constexpr const char* name = "sqrt";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return std::sqrt(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad / (T(2) * y);
  }
};

struct Rsqrt {
  static constexpr const char* name = "rsqrt";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return T(1) / std::sqrt(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return T(-0.5) * grad * (y * y * y);
  }
};

// abs keeps integer types; its gradient is grad * sign(x), 0 at x == 0 (torch.sgn).
struct Abs {
  static constexpr const char* name = "abs";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Keep;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else {
      return x < T(0) ? static_cast<T>(-x) : x;
    }
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * static_cast<T>((T(0) < x) - (x < T(0)));
  }
};

struct Sin {
  static constexpr const char* name = "sin";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return sin(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * cos(x);
  }
};

struct Cos {
  static constexpr const char* name = "cos";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return cos(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * -sin(x);
  }
};

struct Tanh {
  static constexpr const char* name = "tanh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return tanh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * (T(1) - y * y);
  }
};

struct Sigmoid {
  static constexpr const char* name = "sigmoid";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return T(1) / (T(1) + exp(-x));
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * (T(1) - y) * y;
  }
};

// relu keeps integer types and NaN; its gradient is 0 where the output is <= 0 (so at x == 0).
struct Relu {
  static constexpr const char* name = "relu";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Keep;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    if constexpr (std::is_unsigned_v<T>) {
      return x;  // nothing to cut off (and no always-false comparison for the compiler to flag)
    } else {
      return x < T(0) ? T(0) : x;
    }
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return y <= T(0) ? T(0) : grad;
  }
};

inline constexpr double kSqrt1_2 = 0.70710678118654752440;        // 1/sqrt(2)
inline constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // 2/sqrt(pi)

struct Gelu {
  static constexpr const char* name = "gelu";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Reject;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return x * T(0.5) * (T(1) + erf(x * T(kSqrt1_2)));
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    const T cdf = T(0.5) * (T(1) + erf(x * T(kSqrt1_2)));
    const T pdf = T(kTwoOverSqrtPi * kSqrt1_2 * 0.5) * exp(x * x * T(-0.5));
    return grad * (cdf + x * pdf);
  }
};

struct GeluTanh {
  static constexpr const char* name = "gelu";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Reject;
  static constexpr bool grad_uses_output = false;
  static constexpr double kBeta = 1.41421356237309504880 * kTwoOverSqrtPi * 0.5;  // sqrt(2/pi)
  static constexpr double kKappa = 0.044715;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    const T inner = T(kBeta) * (x + T(kKappa) * x * x * x);
    return T(0.5) * x * (T(1) + tanh(inner));
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    const T x_sq = x * x;
    const T tanh_inner = tanh(T(kBeta) * (x + T(kKappa) * x_sq * x));
    const T left = T(0.5) * x;
    const T left_derivative = T(0.5) * (T(1) + tanh_inner);
    const T right_derivative = T(1) - tanh_inner * tanh_inner;
    const T inner_derivative = T(kBeta) * (T(1) + T(3 * kKappa) * x_sq);
    return grad * (left_derivative + left * right_derivative * inner_derivative);
  }
};

struct Silu {
  static constexpr const char* name = "silu";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Reject;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return x / (T(1) + exp(-x));
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    const T sigmoid = Sigmoid::forward(x);
    return grad * sigmoid * (T(1) + x * (T(1) - sigmoid));
  }
};

struct Log1p {
  static constexpr const char* name = "log1p";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return log1p(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / (T(1) + x);
  }
};

struct Expm1 {
  static constexpr const char* name = "expm1";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return expm1(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * (y + T(1));
  }
};

struct Erf {
  static constexpr const char* name = "erf";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return erf(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * T(kTwoOverSqrtPi) * exp(-(x * x));
  }
};

// Rounding to an integer value: integer inputs pass through; the gradient is zero everywhere
// (PyTorch's convention, also at the steps).
template <typename Derived>
struct Rounding {
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Keep;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    if constexpr (std::is_integral_v<T>) {
      return x;
    } else {
      return Derived::round(x);
    }
  }
  template <typename T>
  ACCEL_INLINE static T backward(T, T) {
    return T(0);
  }
};
struct Floor : Rounding<Floor> {
  static constexpr const char* name = "floor";
  template <typename T>
  ACCEL_INLINE static T round(T x) {
    return std::floor(x);
  }
};
struct Ceil : Rounding<Ceil> {
  static constexpr const char* name = "ceil";
  template <typename T>
  ACCEL_INLINE static T round(T x) {
    return std::ceil(x);
  }
};
struct Round : Rounding<Round> {
  static constexpr const char* name = "round";
  template <typename T>
  ACCEL_INLINE static T round(T x) {
    return std::rint(x);  // the default rounding mode: halves to even
  }
};
struct Trunc : Rounding<Trunc> {
  static constexpr const char* name = "trunc";
  template <typename T>
  ACCEL_INLINE static T round(T x) {
    return std::trunc(x);
  }
};

// -1, 0 or 1 (0 for NaN, as torch.sign); integer types keep their type; zero gradient.
struct Sign {
  static constexpr const char* name = "sign";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::Keep;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    if constexpr (std::is_unsigned_v<T>) {
      return static_cast<T>(T(0) < x);
    } else {
      return static_cast<T>((T(0) < x) - (x < T(0)));
    }
  }
  template <typename T>
  ACCEL_INLINE static T backward(T, T) {
    return T(0);
  }
};

// Calls f.template operator()<OpStruct>() for the struct of `op` (host-side dispatch).
// ---- trigonometric and hyperbolic functions, their inverses, and logarithms and powers to other
// bases (PyTorch's derivative formulas) ----

struct Tan {
  static constexpr const char* name = "tan";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return tan(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * (T(1) + y * y);
  }
};

struct Asin {
  static constexpr const char* name = "asin";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return asin(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / sqrt(T(1) - x * x);
  }
};

struct Acos {
  static constexpr const char* name = "acos";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return acos(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return -grad / sqrt(T(1) - x * x);
  }
};

struct Atan {
  static constexpr const char* name = "atan";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return atan(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / (T(1) + x * x);
  }
};

struct Sinh {
  static constexpr const char* name = "sinh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return sinh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * cosh(x);
  }
};

struct Cosh {
  static constexpr const char* name = "cosh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return cosh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * sinh(x);
  }
};

struct Asinh {
  static constexpr const char* name = "asinh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return asinh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / sqrt(x * x + T(1));
  }
};

struct Acosh {
  static constexpr const char* name = "acosh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return acosh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / sqrt(x * x - T(1));
  }
};

struct Atanh {
  static constexpr const char* name = "atanh";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return atanh(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / (T(1) - x * x);
  }
};

struct Log2 {
  static constexpr const char* name = "log2";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return log2(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / (x * T(0.6931471805599453));  // ln 2
  }
};

struct Log10 {
  static constexpr const char* name = "log10";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return log10(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad / (x * T(2.302585092994046));  // ln 10
  }
};

struct Exp2 {
  static constexpr const char* name = "exp2";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return exp2(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * y * T(0.6931471805599453);  // ln 2
  }
};

// erfc(x) = 1 - erf(x), accurate where erf(x) is close to 1.
struct Erfc {
  static constexpr const char* name = "erfc";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return erfc(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * T(-1.1283791670955126) * exp(-(x * x));  // -2 / sqrt(pi)
  }
};

struct Erfinv {
  static constexpr const char* name = "erfinv";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = true;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return erfinv_value(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T y) {
    return grad * T(0.88622692545275801) * exp(y * y);  // sqrt(pi) / 2 * exp(y^2)
  }
};

// log(|gamma(x)|)
struct Lgamma {
  static constexpr const char* name = "lgamma";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return log_gamma(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * digamma_value(x);
  }
};

struct Digamma {
  static constexpr const char* name = "digamma";
  static constexpr IntegerInputs integer_inputs = IntegerInputs::ToFloat;
  static constexpr bool grad_uses_output = false;
  template <typename T>
  ACCEL_INLINE static T forward(T x) {
    return digamma_value(x);
  }
  template <typename T>
  ACCEL_INLINE static T backward(T grad, T x) {
    return grad * trigamma_value(x);
  }
};

template <typename F>
decltype(auto) visit(UnaryOp op, F&& f) {
  switch (op) {
    case UnaryOp::Exp:
      return f.template operator()<Exp>();
    case UnaryOp::Log:
      return f.template operator()<Log>();
    case UnaryOp::Sqrt:
      return f.template operator()<Sqrt>();
    case UnaryOp::Rsqrt:
      return f.template operator()<Rsqrt>();
    case UnaryOp::Abs:
      return f.template operator()<Abs>();
    case UnaryOp::Sin:
      return f.template operator()<Sin>();
    case UnaryOp::Cos:
      return f.template operator()<Cos>();
    case UnaryOp::Tanh:
      return f.template operator()<Tanh>();
    case UnaryOp::Sigmoid:
      return f.template operator()<Sigmoid>();
    case UnaryOp::Relu:
      return f.template operator()<Relu>();
    case UnaryOp::Gelu:
      return f.template operator()<Gelu>();
    case UnaryOp::GeluTanh:
      return f.template operator()<GeluTanh>();
    case UnaryOp::Silu:
      return f.template operator()<Silu>();
    case UnaryOp::Log1p:
      return f.template operator()<Log1p>();
    case UnaryOp::Expm1:
      return f.template operator()<Expm1>();
    case UnaryOp::Erf:
      return f.template operator()<Erf>();
    case UnaryOp::Floor:
      return f.template operator()<Floor>();
    case UnaryOp::Ceil:
      return f.template operator()<Ceil>();
    case UnaryOp::Round:
      return f.template operator()<Round>();
    case UnaryOp::Trunc:
      return f.template operator()<Trunc>();
    case UnaryOp::Sign:
      return f.template operator()<Sign>();
    case UnaryOp::Tan:
      return f.template operator()<Tan>();
    case UnaryOp::Asin:
      return f.template operator()<Asin>();
    case UnaryOp::Acos:
      return f.template operator()<Acos>();
    case UnaryOp::Atan:
      return f.template operator()<Atan>();
    case UnaryOp::Sinh:
      return f.template operator()<Sinh>();
    case UnaryOp::Cosh:
      return f.template operator()<Cosh>();
    case UnaryOp::Asinh:
      return f.template operator()<Asinh>();
    case UnaryOp::Acosh:
      return f.template operator()<Acosh>();
    case UnaryOp::Atanh:
      return f.template operator()<Atanh>();
    case UnaryOp::Log2:
      return f.template operator()<Log2>();
    case UnaryOp::Log10:
      return f.template operator()<Log10>();
    case UnaryOp::Exp2:
      return f.template operator()<Exp2>();
    case UnaryOp::Erfc:
      return f.template operator()<Erfc>();
    case UnaryOp::Erfinv:
      return f.template operator()<Erfinv>();
    case UnaryOp::Lgamma:
      return f.template operator()<Lgamma>();
    case UnaryOp::Digamma:
      return f.template operator()<Digamma>();
  }
  __builtin_unreachable();  // every enumerator is handled above
}

// clamp: NaN in x or in a bound propagates, as torch.clamp; min > max gives max everywhere.
template <typename T>
ACCEL_INLINE T clamp_value(T x, T lo, T hi) {
  return minimum_value(maximum_value(x, lo), hi);
}
// The gradient flows only strictly inside the given bounds (PyTorch's convention: 0 at a bound
// and where x is NaN).
template <typename T>
ACCEL_INLINE T clamp_grad(T grad, T x, T lo, T hi, bool has_lo, bool has_hi) {
  return (!has_lo || x > lo) && (!has_hi || x < hi) ? grad : T(0);
}

// clamp's bounds as the kernels use them, in T's accumulate type: each one given (stored as T
// at min or max, host memory) or absent (a null pointer), in which case it is the widest
// value, which leaves every x (NaN included) unchanged.
template <typename T>
struct ClampBounds {
  acc_t<T> lo, hi;
  bool has_lo, has_hi;
};
template <typename T>
ClampBounds<T> clamp_bounds(const void* min, const void* max) {
  using A = acc_t<T>;
  using limits = std::numeric_limits<A>;
  auto read = [](const void* p, A absent) {
    if (p == nullptr) return absent;
    T value;
    std::memcpy(&value, p, sizeof(T));
    return static_cast<A>(value);
  };
  return {read(min, limits::has_infinity ? -limits::infinity() : limits::lowest()),
          read(max, limits::has_infinity ? limits::infinity() : limits::max()), min != nullptr,
          max != nullptr};
}

}  // namespace accel::math
