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

namespace {
// The bound at `p` in the accumulate type, or `absent` when p is null.
template <typename T>
acc_t<T> bound(const void* p, acc_t<T> absent) {
  return p ? static_cast<acc_t<T>>(*static_cast<const T*>(p)) : absent;
}
}  // namespace

void clamp(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max) {
  dispatch_numeric(dtype, "clamp", [&]<typename T>() {
    using A = acc_t<T>;
    using limits = std::numeric_limits<A>;
    // An absent bound is the widest value, which leaves every x (NaN included) unchanged.
    const A lo = bound<T>(min, limits::has_infinity ? -limits::infinity() : limits::lowest());
    const A hi = bound<T>(max, limits::has_infinity ? limits::infinity() : limits::max());
    map_elements<T, T>(loop, [lo, hi](T x) {
      return static_cast<T>(math::clamp_value(static_cast<A>(x), lo, hi));
    });
  });
}

void clamp_backward(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max) {
  dispatch_floating(dtype, "clamp", [&]<typename T>() {
    using A = acc_t<T>;
    const A lo = bound<T>(min, A(0));
    const A hi = bound<T>(max, A(0));
    const bool has_lo = min != nullptr, has_hi = max != nullptr;
    map_elements<T, T, T>(loop, [=](T grad, T x) {
      return static_cast<T>(
          math::clamp_grad(static_cast<A>(grad), static_cast<A>(x), lo, hi, has_lo, has_hi));
    });
  });
}

}  // namespace accel::cpu
