// CUDA batch normalization over contiguous [batch, channels, spatial] inputs (contracts in
// kernels/backend.h, geometry in kernels/common/batch_norm_shape.h): the device twin of
// kernels/cpu/batch_norm.cpp, with the same formulas and no atomics.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/batch_norm_shape.h"

namespace accel::cuda {

void batch_norm_statistics(ScalarType type, const void* in, void* mean, void* var,
                           BatchNormShape shape, const Stream& stream);
void batch_norm_normalize(ScalarType type, const void* in, const void* mean, const void* invstd,
                          const void* weight, const void* bias, void* out, BatchNormShape shape,
                          const Stream& stream);
void batch_norm_backward_reduce(ScalarType type, const void* grad, const void* in, const void* mean,
                                const void* invstd, void* sum_grad, void* sum_grad_xhat,
                                BatchNormShape shape, const Stream& stream);
void batch_norm_backward_input(ScalarType type, const void* grad, const void* in, const void* mean,
                               const void* invstd, const void* weight, const void* sum_grad,
                               const void* sum_grad_xhat, void* grad_in, BatchNormShape shape,
                               const Stream& stream);

}  // namespace accel::cuda
