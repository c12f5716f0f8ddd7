// CUDA sorting along one dim of a contiguous [outer, reduced, inner] input: the indices of the
// first k elements in sorted order (contract in kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cuda {

void sort(ScalarType type, const void* in, int64_t* indices, ReduceShape shape, int64_t k,
          bool descending, const Stream& stream);

}  // namespace accel::cuda
