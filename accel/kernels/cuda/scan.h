// CUDA cumulative sums and products along one dim of a contiguous [outer, reduced, inner] input
// (contract in kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/reduce_shape.h"
#include "accel/kernels/common/scan_sort_math.h"

namespace accel::cuda {

void scan(ScalarType type, math::ScanOp op, const void* in, void* out, ReduceShape shape,
          const Stream& stream);

}  // namespace accel::cuda
