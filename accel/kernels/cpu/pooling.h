// CPU kernels for 2-D pooling over contiguous [planes, H, W] inputs (planes = N * C): max
// pooling that also writes each output's argmax (flat h * W + w within its plane, as
// PyTorch), and average pooling over fixed or adaptive windows with its adjoint (backward).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/pool2d_shape.h"

namespace accel::cpu {

// out = the maximum over each window (NaN wins, as PyTorch), indices = where it was.
void max_pool2d(ScalarType dtype, const Pool2dShape& shape, const void* in, void* out,
                int64_t* indices);

// The adjoint of max_pool2d: grad_in (overwritten) = each grad_out element added at its
// window's maximum, `indices` as max_pool2d wrote them (flat positions within each plane).
void max_pool2d_backward(ScalarType dtype, const Pool2dShape& shape, const void* grad_out,
                         const int64_t* indices, void* grad_in);

// out = the mean over each window.
void avg_pool2d(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows, const void* in,
                void* out);

// The adjoint of avg_pool2d: grad_in (overwritten) = sum over windows holding an element of
// grad_out / divisor.
void avg_pool2d_backward(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows,
                         const void* grad_out, void* grad_in);

}  // namespace accel::cpu
