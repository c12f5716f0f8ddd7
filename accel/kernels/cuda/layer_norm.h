// CUDA layer normalization over contiguous rows, forward and backward (contracts in
// kernels/backend.h, geometry in kernels/common/layer_norm_shape.h): the device twin of
// kernels/cpu/layer_norm.cpp, with the same formulas and no atomics.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/layer_norm_shape.h"

namespace accel::cuda {

void layer_norm(ScalarType type, const void* in, const void* weight, const void* bias, void* out,
                void* mean, void* rstd, LayerNormShape shape, double eps, const Stream& stream);
void layer_norm_backward(ScalarType type, const void* grad, const void* in, const void* mean,
                         const void* rstd, const void* weight, void* grad_in, void* grad_weight,
                         void* grad_bias, LayerNormShape shape, const Stream& stream);

}  // namespace accel::cuda
