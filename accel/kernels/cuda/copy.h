// CUDA kernels that move elements: strided copy with dtype conversion, and fill (contracts in
// kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/loop.h"

namespace accel::cuda {

void copy(ScalarType out_type, ScalarType in_type, const Loop<2>& loop, const Stream& stream);
void fill(ScalarType type, const Loop<1>& loop, const void* value, const Stream& stream);

}  // namespace accel::cuda
