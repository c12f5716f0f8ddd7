// Batch normalization on the CPU over contiguous [batch, channels, spatial] inputs (contracts in
// kernels/backend.h): per-channel statistics and gradient sums, each channel's taken by one
// thread in a fixed order (same bits for any thread count), and the element-wise passes that
// normalize and write the input's gradient.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/batch_norm_shape.h"

namespace accel::cpu {

void batch_norm_statistics(ScalarType type, const void* in, void* mean, void* var,
                           BatchNormShape shape);
void batch_norm_normalize(ScalarType type, const void* in, const void* mean, const void* invstd,
                          const void* weight, const void* bias, void* out, BatchNormShape shape);
void batch_norm_backward_reduce(ScalarType type, const void* grad, const void* in, const void* mean,
                                const void* invstd, void* sum_grad, void* sum_grad_xhat,
                                BatchNormShape shape);
void batch_norm_backward_input(ScalarType type, const void* grad, const void* in, const void* mean,
                               const void* invstd, const void* weight, const void* sum_grad,
                               const void* sum_grad_xhat, void* grad_in, BatchNormShape shape);

}  // namespace accel::cpu
