// CUDA kernels for the activation functions and their gradients (contracts in
// kernels/backend.h); the math is kernels/common/activation_math.h, shared with the CPU.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/activation_math.h"
#include "accel/kernels/common/loop.h"

namespace accel::cuda {

void activation(const math::Activation& f, ScalarType dtype, const Loop<2>& loop,
                const Stream& stream);
void activation_backward(const math::Activation& f, ScalarType dtype, const Loop<3>& loop,
                         const Stream& stream);

}  // namespace accel::cuda
