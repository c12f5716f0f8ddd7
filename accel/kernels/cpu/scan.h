// CPU cumulative sums and products along one dim of a contiguous [outer, reduced, inner] input
// (contract in kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/reduce_shape.h"
#include "accel/kernels/common/scan_sort_math.h"

namespace accel::cpu {

// out[o, r, i] = in[o, 0, i] op ... op in[o, r, i], taken in order of q in
// math::scan_accumulate_t.
void scan(ScalarType type, math::ScanOp op, const void* in, void* out, ReduceShape shape);

}  // namespace accel::cpu
