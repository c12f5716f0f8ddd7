// CUDA kernels for the element-wise unary ops, their gradients, and clamp (contracts in
// kernels/backend.h); the math is kernels/common/unary_math.h, shared with the CPU.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/loop.h"
#include "accel/kernels/common/unary_math.h"

namespace accel::cuda {

void unary(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop, const Stream& stream);
void unary_backward(math::UnaryOp op, ScalarType dtype, const Loop<3>& loop, const Stream& stream);
void clamp(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max,
           const Stream& stream);
void clamp_backward(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max,
                    const Stream& stream);

}  // namespace accel::cuda
