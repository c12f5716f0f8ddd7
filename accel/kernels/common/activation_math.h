// The activation functions that take parameters (elu's alpha, softplus's beta and threshold,
// hardtanh's bounds, ...) or pick between formulas, with their derivatives: one struct per
// function holding its forward and backward side by side, PyTorch's formulas and PyTorch's
// gradients at the kinks. Written once for the CPU loops and the CUDA kernels: arguments arrive
// in the accumulate type A (float for Half/BFloat16), or on the CPU as vectors of it, so the
// formulas compare and pick with if_else (kernels/cpu/vector_math.h has the vector versions).
// Every backward reads the function's input.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/base/macros.h"

namespace accel::math {

using std::exp;
using std::expm1;
using std::log1p;
using std::tanh;

enum class ActivationKind : int8_t {
  Elu,  // also selu and celu
  Softplus,
  Hardtanh,  // also relu6
  Hardsigmoid,
  Hardswish,
  Mish,
  LogSigmoid,
  Softshrink,
  Hardshrink,
  Threshold,
  LeakyRelu,
  Softsign,
  Tanhshrink,
};

// One activation function and its parameters, in the order its struct below lists them.
struct Activation {
  ActivationKind kind;
  double parameters[3] = {0, 0, 0};
};

// condition ? a : b for a scalar condition; vectors of conditions have their own.
template <typename T>
ACCEL_INLINE T if_else(bool condition, T a, T b) {
  return condition ? a : b;
}

template <typename T>
ACCEL_INLINE T absolute(T x) {
  return if_else(x < T(0), -x, x);
}

// Whether lo <= x <= hi: where the shrink functions give (and pass) zero.
template <typename T, typename A>
ACCEL_INLINE auto within(T x, A lo, A hi) {
  return (x >= T(lo)) & (x <= T(hi));
}

// x where x > 0, else scale * alpha * (exp(x * input_scale) - 1) (elu; selu fixes alpha and
// scale, celu sets input_scale = 1 / alpha). Parameters: alpha, scale, input_scale.
template <typename A>
struct Elu {
  static constexpr const char* name = "elu";
  A alpha, scale, input_scale;
  explicit Elu(const Activation& a)
      : alpha(A(a.parameters[0])), scale(A(a.parameters[1])), input_scale(A(a.parameters[2])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x <= T(0), expm1(x * T(input_scale)) * T(alpha * scale), x * T(scale));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(x <= T(0), grad * T(input_scale * alpha * scale) * exp(x * T(input_scale)),
                   grad * T(scale));
  }
};

// log(1 + exp(beta * x)) / beta, or x where beta * x > threshold. Parameters: beta, threshold.
template <typename A>
struct Softplus {
  static constexpr const char* name = "softplus";
  A beta, threshold;
  explicit Softplus(const Activation& a)
      : beta(A(a.parameters[0])), threshold(A(a.parameters[1])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    const T scaled = x * T(beta);
    return if_else(scaled > T(threshold), x, log1p(exp(scaled)) / T(beta));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    const T scaled = x * T(beta);
    const T z = exp(scaled);
    return if_else(scaled > T(threshold), grad, grad * z / (z + T(1)));
  }
};

// x clamped to [min, max] (NaN stays NaN); the gradient flows strictly inside. Parameters: min,
// max.
template <typename A>
struct Hardtanh {
  static constexpr const char* name = "hardtanh";
  A min, max;
  explicit Hardtanh(const Activation& a) : min(A(a.parameters[0])), max(A(a.parameters[1])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x < T(min), T(min), if_else(x > T(max), T(max), x));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else((x <= T(min)) | (x >= T(max)), T(0), grad);
  }
};

// min(max(x + 3, 0), 6): hardsigmoid and hardswish's ramp, before the division by 6.
template <typename T>
ACCEL_INLINE T ramp_to_six(T x) {
  const T shifted = x + T(3);
  return if_else(shifted < T(0), T(0), if_else(shifted > T(6), T(6), shifted));
}

// min(max(x + 3, 0), 6) / 6.
template <typename A>
struct Hardsigmoid {
  static constexpr const char* name = "hardsigmoid";
  explicit Hardsigmoid(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return ramp_to_six(x) / T(6);
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else((x > T(-3)) & (x < T(3)), grad * T(A(1) / A(6)), T(0));
  }
};

// x * min(max(x + 3, 0), 6) / 6; the gradient is x / 3 + 1/2 strictly between -3 and 3, 0 at
// -3 and 1 at 3 (PyTorch's choice at the kinks).
template <typename A>
struct Hardswish {
  static constexpr const char* name = "hardswish";
  explicit Hardswish(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return x * ramp_to_six(x) / T(6);
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(x <= T(-3), T(0), if_else(x < T(3), grad * (x / T(3) + T(0.5)), grad));
  }
};

// x * tanh(softplus(x)).
template <typename A>
struct Mish {
  static constexpr const char* name = "mish";
  explicit Mish(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return x * tanh(log1p(exp(x)));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    const T sigmoid = T(1) / (T(1) + exp(-x));
    const T tanh_softplus = tanh(log1p(exp(x)));
    return grad * (tanh_softplus + x * sigmoid * (T(1) - tanh_softplus * tanh_softplus));
  }
};

// log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), which never overflows.
template <typename A>
struct LogSigmoid {
  static constexpr const char* name = "log_sigmoid";
  explicit LogSigmoid(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x < T(0), x, T(0)) - log1p(exp(-absolute(x)));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    const T z = exp(-absolute(x));
    const T share = z / (T(1) + z);  // sigmoid(-|x|)
    return if_else(x < T(0), grad * (T(1) - share), grad * share);
  }
};

// x - lambd above lambd, x + lambd below -lambd, 0 between. Parameters: lambd.
template <typename A>
struct Softshrink {
  static constexpr const char* name = "softshrink";
  A lambd;
  explicit Softshrink(const Activation& a) : lambd(A(a.parameters[0])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x > T(lambd), x - T(lambd), if_else(x < T(-lambd), x + T(lambd), x * T(0)));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(within(x, -lambd, lambd), T(0), grad);
  }
};

// 0 on [-lambd, lambd], x elsewhere. Parameters: lambd.
template <typename A>
struct Hardshrink {
  static constexpr const char* name = "hardshrink";
  A lambd;
  explicit Hardshrink(const Activation& a) : lambd(A(a.parameters[0])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(within(x, -lambd, lambd), T(0), x);
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(within(x, -lambd, lambd), T(0), grad);
  }
};

// value where x <= threshold, else x. Parameters: threshold, value.
template <typename A>
struct Threshold {
  static constexpr const char* name = "threshold";
  A threshold, value;
  explicit Threshold(const Activation& a)
      : threshold(A(a.parameters[0])), value(A(a.parameters[1])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x <= T(threshold), T(value), x);
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(x <= T(threshold), T(0), grad);
  }
};

// x where x > 0, else negative_slope * x (the gradient at 0 is the slope). Parameters:
// negative_slope.
template <typename A>
struct LeakyRelu {
  static constexpr const char* name = "leaky_relu";
  A negative_slope;
  explicit LeakyRelu(const Activation& a) : negative_slope(A(a.parameters[0])) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return if_else(x > T(0), x, x * T(negative_slope));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    return if_else(x > T(0), grad, grad * T(negative_slope));
  }
};

// x / (1 + |x|).
template <typename A>
struct Softsign {
  static constexpr const char* name = "softsign";
  explicit Softsign(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return x / (T(1) + absolute(x));
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    const T denominator = T(1) + absolute(x);
    return grad / (denominator * denominator);
  }
};

// x - tanh(x).
template <typename A>
struct Tanhshrink {
  static constexpr const char* name = "tanhshrink";
  explicit Tanhshrink(const Activation&) {}
  template <typename T>
  ACCEL_INLINE T forward(T x) const {
    return x - tanh(x);
  }
  template <typename T>
  ACCEL_INLINE T backward(T grad, T x) const {
    const T t = tanh(x);
    return grad * t * t;
  }
};

// Calls f.template operator()<Op>() with the struct template Op of `kind` (host-side dispatch).
template <typename F>
decltype(auto) visit(ActivationKind kind, F&& f) {
  switch (kind) {
    case ActivationKind::Elu:
      return f.template operator()<Elu>();
    case ActivationKind::Softplus:
      return f.template operator()<Softplus>();
    case ActivationKind::Hardtanh:
      return f.template operator()<Hardtanh>();
    case ActivationKind::Hardsigmoid:
      return f.template operator()<Hardsigmoid>();
    case ActivationKind::Hardswish:
      return f.template operator()<Hardswish>();
    case ActivationKind::Mish:
      return f.template operator()<Mish>();
    case ActivationKind::LogSigmoid:
      return f.template operator()<LogSigmoid>();
    case ActivationKind::Softshrink:
      return f.template operator()<Softshrink>();
    case ActivationKind::Hardshrink:
      return f.template operator()<Hardshrink>();
    case ActivationKind::Threshold:
      return f.template operator()<Threshold>();
    case ActivationKind::LeakyRelu:
      return f.template operator()<LeakyRelu>();
    case ActivationKind::Softsign:
      return f.template operator()<Softsign>();
    case ActivationKind::Tanhshrink:
      return f.template operator()<Tanhshrink>();
  }
  __builtin_unreachable();  // every enumerator is handled above
}

}  // namespace accel::math
