// Instantiates the unary math of kernels/common/unary_math.h for the dtypes each op accepts:
// every numeric type for abs and relu, the floating types for the rest and for all gradients.
// The formulas that call libm functions run on SLEEF's vectors (kernels/cpu/vector_math.h),
// where a libm call per element would not vectorize; the others vectorize as they are.
#include "accel/kernels/cpu/unary.h"

#include <concepts>
#include <limits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/vector_math.h"

namespace accel::cpu {

namespace {

template <typename Op>
constexpr bool kCallsLibm =
    std::same_as<Op, math::Exp> || std::same_as<Op, math::Log> || std::same_as<Op, math::Sin> ||
    std::same_as<Op, math::Cos> || std::same_as<Op, math::Tanh> ||
    std::same_as<Op, math::Sigmoid> || std::same_as<Op, math::Gelu> ||
    std::same_as<Op, math::GeluTanh> || std::same_as<Op, math::Silu> ||
    std::same_as<Op, math::Log1p> || std::same_as<Op, math::Expm1> || std::same_as<Op, math::Erf> ||
    std::same_as<Op, math::Tan> || std::same_as<Op, math::Asin> || std::same_as<Op, math::Acos> ||
    std::same_as<Op, math::Atan> || std::same_as<Op, math::Sinh> || std::same_as<Op, math::Cosh> ||
    std::same_as<Op, math::Asinh> || std::same_as<Op, math::Acosh> ||
    std::same_as<Op, math::Atanh> || std::same_as<Op, math::Log2> ||
    std::same_as<Op, math::Log10> || std::same_as<Op, math::Exp2> || std::same_as<Op, math::Erfc>;

}  // namespace

void unary(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop) {
  math::visit(op, [&]<typename Op>() {
    auto run = [&]<typename T>() {
      using A = acc_t<T>;
      if constexpr (kCallsLibm<Op>) {
        map_vectors<simd::MathVector<A>, T, T>(loop, [](auto x) { return Op::forward(x); });
      } else {
        map_elements<T, T>(loop,
                           [](T x) { return static_cast<T>(Op::forward(static_cast<A>(x))); });
      }
    };
    if constexpr (Op::integer_inputs == math::IntegerInputs::Keep) {
      dispatch_numeric(dtype, Op::name, run);
    } else {
      dispatch_floating(dtype, Op::name, run);
    }
  });
}

void unary_backward(math::UnaryOp op, ScalarType dtype, const Loop<3>& loop) {
  math::visit(op, [&]<typename Op>() {
    dispatch_floating(dtype, Op::name, [&]<typename T>() {
      using A = acc_t<T>;
      if constexpr (kCallsLibm<Op>) {
        map_vectors<simd::MathVector<A>, T, T, T>(
            loop, [](auto grad, auto saved) { return Op::backward(grad, saved); });
      } else {
        map_elements<T, T, T>(loop, [](T grad, T saved) {
          return static_cast<T>(Op::backward(static_cast<A>(grad), static_cast<A>(saved)));
        });
      }
    });
  });
}

void clamp(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max) {
  dispatch_numeric(dtype, "clamp", [&]<typename T>() {
    using A = acc_t<T>;
    const math::ClampBounds<T> b = math::clamp_bounds<T>(min, max);
    map_elements<T, T>(loop, [b](T x) {
      return static_cast<T>(math::clamp_value(static_cast<A>(x), b.lo, b.hi));
    });
  });
}

void clamp_backward(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max) {
  dispatch_floating(dtype, "clamp", [&]<typename T>() {
    using A = acc_t<T>;
    const math::ClampBounds<T> b = math::clamp_bounds<T>(min, max);
    map_elements<T, T, T>(loop, [b](T grad, T x) {
      return static_cast<T>(math::clamp_grad(static_cast<A>(grad), static_cast<A>(x), b.lo, b.hi,
                                             b.has_lo, b.has_hi));
    });
  });
}

}  // namespace accel::cpu
