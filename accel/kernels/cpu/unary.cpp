// Instantiates the unary math of kernels/common/unary_math.h for the dtypes each op accepts:
// every numeric type for abs and relu, the floating types for the rest and for all gradients.
#include "accel/kernels/cpu/unary.h"

#include <limits>

#include "accel/base/dispatch.h"

namespace accel::cpu {

void unary(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop) {
  math::visit(op, [&]<typename Op>() {
    auto run = [&]<typename T>() {
      using A = acc_t<T>;
      map_elements<T, T>(loop, [](T x) { return static_cast<T>(Op::forward(static_cast<A>(x))); });
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
      map_elements<T, T, T>(loop, [](T grad, T saved) {
        return static_cast<T>(Op::backward(static_cast<A>(grad), static_cast<A>(saved)));
      });
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
