// CUDA padding by reflection, replication or wrapping, and its gradient (contracts in
// kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/pad_math.h"

namespace accel::cuda {

void pad(ScalarType dtype, const PadShape& shape, const void* in, void* out, const Stream& stream);
void pad_backward(ScalarType dtype, const PadShape& shape, const void* grad_out, void* grad_in,
                  const Stream& stream);

}  // namespace accel::cuda
