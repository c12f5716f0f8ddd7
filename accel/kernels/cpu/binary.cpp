// Instantiates the binary math for every dtype; integer division (div, fmod, remainder,
// floor_divide) by zero is reported instead of trapping. 16-bit floats compute in float and
// round once.
#include "accel/kernels/cpu/binary.h"

#include "accel/base/dispatch.h"

namespace accel::cpu {

using math::BinaryOp;

namespace {

template <BinaryOp Op, typename T>
void run(const Loop<3>& loop, double alpha) {
  using A = acc_t<T>;
  using Out = std::conditional_t<math::is_comparison(Op), bool, T>;
  if constexpr (Op == BinaryOp::Add || Op == BinaryOp::Sub) {
    if (alpha != 1.0) {
      const A scale = static_cast<A>(alpha);
      map_elements<Out, T, T>(loop, [scale](T a, T b) {
        return static_cast<Out>(math::binary_value<Op, A>(A(a), static_cast<A>(scale * A(b))));
      });
      return;
    }
  }
  if constexpr (math::divides(Op) && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    map_elements<Out, T, T>(loop, [](T a, T b) {
      ACCEL_CHECK(b != 0, math::division_name(Op), "integer division by zero");
      if constexpr (Op == BinaryOp::Div) {
        return static_cast<Out>(math::integer_quotient(a, b));
      } else {
        return static_cast<Out>(math::binary_value<Op, T>(a, b));
      }
    });
  } else if constexpr (std::is_same_v<T, bool> && !math::is_comparison(Op)) {
    map_elements<Out, T, T>(
        loop, [](T a, T b) { return static_cast<Out>(math::binary_value<Op, int>(a, b) != 0); });
  } else {
    map_elements<Out, T, T>(
        loop, [](T a, T b) { return static_cast<Out>(math::binary_value<Op, A>(A(a), A(b))); });
  }
}

template <BinaryOp Op>
void run_for_dtype(ScalarType dtype, const Loop<3>& loop, double alpha) {
  dispatch_all(dtype, "binary", [&]<typename T>() { run<Op, T>(loop, alpha); });
}

}  // namespace

void binary(BinaryOp op, ScalarType dtype, const Loop<3>& loop, double alpha) {
  math::visit(op, [&]<BinaryOp Op>() { run_for_dtype<Op>(dtype, loop, alpha); });
}

}  // namespace accel::cpu
