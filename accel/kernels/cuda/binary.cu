// The element-wise binary ops on the GPU for every dtype: the device twin of
// kernels/cpu/binary.cpp (same branches, same kernels/common/binary_math.h). A kernel cannot
// throw, so integer division by zero writes 0 and reports to the device's error record.
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/cuda/binary.h"
#include "accel/kernels/cuda/device_error.cuh"
#include "accel/kernels/cuda/elementwise.cuh"

namespace accel::cuda {

using math::BinaryOp;

namespace {

// The dtype an op of operands T writes: bool for comparisons.
template <BinaryOp Op, typename T>
using out_t = std::conditional_t<math::is_comparison(Op), bool, T>;

template <BinaryOp Op, typename T>
struct Apply {
  __device__ out_t<Op, T> operator()(T a, T b) const {
    using A = acc_t<T>;
    return static_cast<out_t<Op, T>>(math::binary_value<Op, A>(A(a), A(b)));
  }
};

// add and sub with alpha != 1: out = a op alpha * b, the product rounded to the compute type.
template <BinaryOp Op, typename T>
struct ApplyScaled {
  acc_t<T> scale;
  __device__ T operator()(T a, T b) const {
    using A = acc_t<T>;
    return static_cast<T>(math::binary_value<Op, A>(A(a), static_cast<A>(scale * A(b))));
  }
};

// Arithmetic on bool computes in int and stores whether the result is nonzero.
template <BinaryOp Op>
struct ApplyBool {
  __device__ bool operator()(bool a, bool b) const {
    return static_cast<bool>(math::binary_value<Op, int>(a, b) != 0);
  }
};

template <BinaryOp Op, typename T>
struct IntegerDivide {
  DeviceErrorRecord* errors;
  const char* op;  // host memory: the host reads the string when it raises the error
  __device__ T operator()(T a, T b) const {
    if (b == 0) {
      report_device_error(errors, DeviceErrorKind::IntegerDivisionByZero, op);
      return T(0);
    }
    if constexpr (Op == BinaryOp::Div) {
      return math::integer_quotient(a, b);
    } else {
      return math::binary_value<Op, T>(a, b);
    }
  }
};

template <BinaryOp Op, typename T>
void run(const Loop<3>& loop, double alpha, const Stream& stream) {
  using Out = out_t<Op, T>;
  if constexpr (Op == BinaryOp::Add || Op == BinaryOp::Sub) {
    if (alpha != 1.0) {
      map_elements<Out, T, T>(loop, stream, "binary",
                              ApplyScaled<Op, T>{static_cast<acc_t<T>>(alpha)});
      return;
    }
  }
  if constexpr (math::divides(Op) && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    map_elements<Out, T, T>(
        loop, stream, math::division_name(Op),
        IntegerDivide<Op, T>{device_error_record(stream.device().index), math::division_name(Op)});
  } else if constexpr (std::is_same_v<T, bool> && !math::is_comparison(Op)) {
    map_elements<Out, T, T>(loop, stream, "binary", ApplyBool<Op>{});
  } else {
    map_elements<Out, T, T>(loop, stream, "binary", Apply<Op, T>{});
  }
}

template <BinaryOp Op>
void run_for_dtype(ScalarType dtype, const Loop<3>& loop, double alpha, const Stream& stream) {
  dispatch_all(dtype, "binary", [&]<typename T>() { run<Op, T>(loop, alpha, stream); });
}

}  // namespace

void binary(BinaryOp op, ScalarType dtype, const Loop<3>& loop, double alpha,
            const Stream& stream) {
  math::visit(op, [&]<BinaryOp Op>() { run_for_dtype<Op>(dtype, loop, alpha, stream); });
}

}  // namespace accel::cuda
