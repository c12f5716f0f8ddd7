// CUDA kernels that move elements by index along one dim, and the range check whose failures
// surface at the stream's next synchronization (contracts in kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/backend.h"

namespace accel::cuda {

void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check, const Stream& stream);
// An index outside [0, dim_size) is reported as check says (raised at the next
// synchronization) and its element skipped: gather writes zero there, scatter leaves its
// destination alone.
void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
            int64_t dim_size, IndexCheck check, const Stream& stream);
void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t dim_size, IndexCheck check, const Stream& stream);

}  // namespace accel::cuda
