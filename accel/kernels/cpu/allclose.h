// CPU kernel deciding whether two strided operands of one dtype are element-wise close
// (torch.allclose); equal() is the zero-tolerance case.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// Whether every element pair of Loop<2>(a, b) satisfies math::is_close.
bool all_close(ScalarType dtype, const Loop<2>& loop, double rtol, double atol, bool equal_nan);

}  // namespace accel::cpu
