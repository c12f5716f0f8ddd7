// The element-wise unary ops, their gradients, and clamp on the GPU: the device twin of
// kernels/cpu/unary.cpp, over the same dtype sets, calling the same kernels/common/unary_math.h
// in the accumulate type (16-bit floats compute in float and round once).
#include "accel/base/dispatch.h"
#include "accel/kernels/common/unary_math.h"
#include "accel/kernels/cuda/elementwise.cuh"
#include "accel/kernels/cuda/unary.h"

namespace accel::cuda {

namespace {

template <typename Op, typename T>
struct Forward {
  __device__ T operator()(T x) const {
    return static_cast<T>(Op::forward(static_cast<acc_t<T>>(x)));
  }
};

template <typename Op, typename T>
struct Backward {
  __device__ T operator()(T grad, T saved) const {
    using A = acc_t<T>;
    return static_cast<T>(Op::backward(static_cast<A>(grad), static_cast<A>(saved)));
  }
};

template <typename T>
struct Clamp {
  math::ClampBounds<T> b;
  __device__ T operator()(T x) const {
    return static_cast<T>(math::clamp_value(static_cast<acc_t<T>>(x), b.lo, b.hi));
  }
};

template <typename T>
struct ClampGrad {
  math::ClampBounds<T> b;
  __device__ T operator()(T grad, T x) const {
    using A = acc_t<T>;
    return static_cast<T>(
        math::clamp_grad(static_cast<A>(grad), static_cast<A>(x), b.lo, b.hi, b.has_lo, b.has_hi));
  }
};

}  // namespace

void unary(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop, const Stream& stream) {
  math::visit(op, [&]<typename Op>() {
    auto run = [&]<typename T>() { map_elements<T, T>(loop, stream, Op::name, Forward<Op, T>{}); };
    if constexpr (Op::integer_inputs == math::IntegerInputs::Keep) {
      dispatch_numeric(dtype, Op::name, run);
    } else {
      dispatch_floating(dtype, Op::name, run);
    }
  });
}

void unary_backward(math::UnaryOp op, ScalarType dtype, const Loop<3>& loop, const Stream& stream) {
  math::visit(op, [&]<typename Op>() {
    dispatch_floating(dtype, Op::name, [&]<typename T>() {
      map_elements<T, T, T>(loop, stream, Op::name, Backward<Op, T>{});
    });
  });
}

void clamp(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max,
           const Stream& stream) {
  dispatch_numeric(dtype, "clamp", [&]<typename T>() {
    map_elements<T, T>(loop, stream, "clamp", Clamp<T>{math::clamp_bounds<T>(min, max)});
  });
}

void clamp_backward(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max,
                    const Stream& stream) {
  dispatch_floating(dtype, "clamp", [&]<typename T>() {
    map_elements<T, T, T>(loop, stream, "clamp", ClampGrad<T>{math::clamp_bounds<T>(min, max)});
  });
}

}  // namespace accel::cuda
