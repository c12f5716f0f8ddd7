// The activation functions and their gradients on the GPU: the device twin of
// kernels/cpu/activation.cpp, calling the same kernels/common/activation_math.h in the
// accumulate type (16-bit floats compute in float and round once).
#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/activation.h"
#include "accel/kernels/cuda/elementwise.cuh"

namespace accel::cuda {

namespace {

template <typename Op, typename T>
struct Forward {
  Op op;
  __device__ T operator()(T x) const {
    return static_cast<T>(op.forward(static_cast<acc_t<T>>(x)));
  }
};

template <typename Op, typename T>
struct Backward {
  Op op;
  __device__ T operator()(T grad, T x) const {
    using A = acc_t<T>;
    return static_cast<T>(op.backward(static_cast<A>(grad), static_cast<A>(x)));
  }
};

}  // namespace

void activation(const math::Activation& f, ScalarType dtype, const Loop<2>& loop,
                const Stream& stream) {
  math::visit(f.kind, [&]<template <typename> class Op>() {
    dispatch_floating(dtype, Op<float>::name, [&]<typename T>() {
      using Math = Op<acc_t<T>>;
      map_elements<T, T>(loop, stream, Math::name, Forward<Math, T>{Math(f)});
    });
  });
}

void activation_backward(const math::Activation& f, ScalarType dtype, const Loop<3>& loop,
                         const Stream& stream) {
  math::visit(f.kind, [&]<template <typename> class Op>() {
    dispatch_floating(dtype, Op<float>::name, [&]<typename T>() {
      using Math = Op<acc_t<T>>;
      map_elements<T, T, T>(loop, stream, Math::name, Backward<Math, T>{Math(f)});
    });
  });
}

}  // namespace accel::cuda
