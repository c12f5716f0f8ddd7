// CPU kernels for the element-wise unary ops, their gradients, and clamp, over strided
// operands of one dtype (16-bit floats compute in float and round once). The math itself is
// in kernels/common/unary_math.h, shared with the CUDA kernels.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/unary_math.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// out = op(x) over Loop<2>(out, x).
void unary(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop);
// grad_in = op's backward(grad, saved) over Loop<3>(grad_in, grad, saved), where saved is the
// op's output or input as the op's grad_uses_output says.
void unary_backward(math::UnaryOp op, ScalarType dtype, const Loop<3>& loop);

// min and max point to a bound stored as `dtype`, or are null where that bound is absent.
// out = clamp(x) over Loop<2>(out, x).
void clamp(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max);
// grad_in = grad where min < x < max, else 0, over Loop<3>(grad_in, grad, x).
void clamp_backward(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max);

}  // namespace accel::cpu
