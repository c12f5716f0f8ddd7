// The activation functions on the CPU: every formula runs on SLEEF-backed vectors
// (kernels/cpu/vector_math.h), its branches computed for all lanes and picked by mask.
#include "accel/kernels/cpu/activation.h"

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/vector_math.h"

namespace accel::cpu {

void activation(const math::Activation& f, ScalarType dtype, const Loop<2>& loop) {
  math::visit(f.kind, [&]<template <typename> class Op>() {
    dispatch_floating(dtype, Op<float>::name, [&]<typename T>() {
      using A = acc_t<T>;
      const Op<A> op(f);
      map_vectors<simd::MathVector<A>, T, T>(loop, [&op](auto x) { return op.forward(x); });
    });
  });
}

void activation_backward(const math::Activation& f, ScalarType dtype, const Loop<3>& loop) {
  math::visit(f.kind, [&]<template <typename> class Op>() {
    dispatch_floating(dtype, Op<float>::name, [&]<typename T>() {
      using A = acc_t<T>;
      const Op<A> op(f);
      map_vectors<simd::MathVector<A>, T, T, T>(
          loop, [&op](auto grad, auto x) { return op.backward(grad, x); });
    });
  });
}

}  // namespace accel::cpu
