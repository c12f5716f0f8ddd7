// CPU kernels for the activation functions of kernels/common/activation_math.h and their
// gradients, over strided operands of one floating dtype (16-bit floats compute in float and
// round once).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/activation_math.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// out = f(x) over Loop<2>(out, x).
void activation(const math::Activation& f, ScalarType dtype, const Loop<2>& loop);
// grad_in = f's backward(grad, x) over Loop<3>(grad_in, grad, x).
void activation_backward(const math::Activation& f, ScalarType dtype, const Loop<3>& loop);

}  // namespace accel::cpu
