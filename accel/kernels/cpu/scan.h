// CPU cumulative sum along one dim of a contiguous [outer, reduced, inner] input (contract in
// kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cpu {

// out[o, r, i] = sum_{q <= r} in[o, q, i], added in order of q in math::scan_accumulate_t.
void cumsum(ScalarType type, const void* in, void* out, ReduceShape shape);

}  // namespace accel::cpu
