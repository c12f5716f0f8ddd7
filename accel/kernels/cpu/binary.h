// CPU kernel for element-wise binary ops over strided operands of one dtype (the output is
// bool for comparisons). add/sub take alpha: out = a + alpha * b.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

void binary(math::BinaryOp op, ScalarType dtype, const Loop<3>& loop, double alpha);

}  // namespace accel::cpu
