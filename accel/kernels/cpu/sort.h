// CPU sorting along one dim of a contiguous [outer, reduced, inner] input: the indices of the
// first k elements in sorted order (contract in kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cpu {

// indices [outer, k, inner] = the r of each column's first k elements in ascending (or
// descending) order, in math::sorts_before's order with ties kept in order of r.
void sort(ScalarType type, const void* in, int64_t* indices, ReduceShape shape, int64_t k,
          bool descending);

}  // namespace accel::cpu
