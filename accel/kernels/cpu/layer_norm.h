// Layer normalization on the CPU, forward and backward, over contiguous rows (contract in
// kernels/backend.h). Rows are independent and split across threads; each row's mean and
// variance are vectorized folds (row_fold.h) in a fixed order, so results are the same for
// any thread count.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/layer_norm_shape.h"

namespace accel::cpu {

void layer_norm(ScalarType type, const void* in, const void* weight, const void* bias, void* out,
                void* mean, void* rstd, LayerNormShape shape, double eps);
void layer_norm_backward(ScalarType type, const void* grad, const void* in, const void* mean,
                         const void* rstd, const void* weight, void* grad_in, void* grad_weight,
                         void* grad_bias, LayerNormShape shape);

}  // namespace accel::cpu
