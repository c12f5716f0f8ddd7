// CPU padding by reflection, replication or wrapping, and its gradient (contracts in
// kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/pad_math.h"

namespace accel::cpu {

void pad(ScalarType dtype, const PadShape& shape, const void* in, void* out);
void pad_backward(ScalarType dtype, const PadShape& shape, const void* grad_out, void* grad_in);

}  // namespace accel::cpu
