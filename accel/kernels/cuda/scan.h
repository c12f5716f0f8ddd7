// CUDA cumulative sum along one dim of a contiguous [outer, reduced, inner] input (contract in
// kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cuda {

void cumsum(ScalarType type, const void* in, void* out, ReduceShape shape, const Stream& stream);

}  // namespace accel::cuda
