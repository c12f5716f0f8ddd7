// Instantiates the binary math for every dtype; integer division by zero is reported
// instead of trapping. 16-bit floats compute in float and round once.
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
  if constexpr (Op == BinaryOp::Div && std::is_integral_v<T>) {
    map_elements<Out, T, T>(loop, [](T a, T b) {
      ACCEL_CHECK(b != 0, "div", "integer division by zero");
      return static_cast<Out>(a / b);
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
  switch (op) {
    case BinaryOp::Add:
      return run_for_dtype<BinaryOp::Add>(dtype, loop, alpha);
    case BinaryOp::Sub:
      return run_for_dtype<BinaryOp::Sub>(dtype, loop, alpha);
    case BinaryOp::Mul:
      return run_for_dtype<BinaryOp::Mul>(dtype, loop, alpha);
    case BinaryOp::Div:
      return run_for_dtype<BinaryOp::Div>(dtype, loop, alpha);
    case BinaryOp::Pow:
      return run_for_dtype<BinaryOp::Pow>(dtype, loop, alpha);
    case BinaryOp::Maximum:
      return run_for_dtype<BinaryOp::Maximum>(dtype, loop, alpha);
    case BinaryOp::Minimum:
      return run_for_dtype<BinaryOp::Minimum>(dtype, loop, alpha);
    case BinaryOp::Eq:
      return run_for_dtype<BinaryOp::Eq>(dtype, loop, alpha);
    case BinaryOp::Ne:
      return run_for_dtype<BinaryOp::Ne>(dtype, loop, alpha);
    case BinaryOp::Lt:
      return run_for_dtype<BinaryOp::Lt>(dtype, loop, alpha);
    case BinaryOp::Le:
      return run_for_dtype<BinaryOp::Le>(dtype, loop, alpha);
    case BinaryOp::Gt:
      return run_for_dtype<BinaryOp::Gt>(dtype, loop, alpha);
    case BinaryOp::Ge:
      return run_for_dtype<BinaryOp::Ge>(dtype, loop, alpha);
  }
}

}  // namespace accel::cpu
