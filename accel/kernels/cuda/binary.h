// CUDA kernel for the element-wise binary ops (contract in kernels/backend.h); the math is
// kernels/common/binary_math.h, shared with the CPU.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/common/loop.h"

namespace accel::cuda {

void binary(math::BinaryOp op, ScalarType dtype, const Loop<3>& loop, double alpha,
            const Stream& stream);

}  // namespace accel::cuda
