// CUDA 2-D pooling over contiguous [planes, H, W] (contracts in kernels/backend.h). Backward
// kernels gather into each input element from the windows holding it (no atomics).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/pool2d_shape.h"

namespace accel::cuda {

void max_pool2d(ScalarType dtype, const Pool2dShape& shape, const void* in, void* out,
                int64_t* indices, const Stream& stream);
void max_pool2d_backward(ScalarType dtype, const Pool2dShape& shape, const void* grad_out,
                         const int64_t* indices, void* grad_in, const Stream& stream);
void avg_pool2d(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows, const void* in,
                void* out, const Stream& stream);
void avg_pool2d_backward(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows,
                         const void* grad_out, void* grad_in, const Stream& stream);

}  // namespace accel::cuda
