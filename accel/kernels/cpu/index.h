// CPU kernels that move elements by index along one dim: gather (out[i] = in[index[i]]) and
// scatter (self[index[i]] = src[i], or combined with what is there), both walking the index's
// shape and testing each index before they move its element, plus the range check of a bare
// index (contracts in kernels/backend.h).
// index_select and its gradient (index_add) are the same kernels over an index broadcast
// along the other dims.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/backend.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// Throws the IndexCheck error for the first of the n indices outside [0, size), if any.
void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check);
// gather and scatter throw check's error for an index outside [0, dim_size), the first in the
// loop's order, having moved no element through it.
void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
            int64_t dim_size, IndexCheck check);
// Elements landing on one destination always combine in the loop's order, on any thread
// count (threads split the loop only along a dim where self's stride is not 0), or, for
// integer sums, in an order that cannot change the result.
void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t dim_size, IndexCheck check);

}  // namespace accel::cpu
