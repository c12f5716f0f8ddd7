// CUDA sampling at taps (contracts in kernels/backend.h), the device twins of
// kernels/cpu/sampling.cpp.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/tap_shape.h"

namespace accel::cuda {

void grid_sample_taps(ScalarType dtype, const GridTapsShape& shape, const void* grid,
                      int32_t* index, void* weight, void* weight_grad, const Stream& stream);

void tap_sample(ScalarType dtype, const TapShape& shape, const void* input, const int32_t* index,
                const void* weight, void* out, const Stream& stream);
void tap_sample_backward(ScalarType dtype, const TapShape& shape, const void* input,
                         const void* grad, const int32_t* index, const void* weight, int64_t params,
                         const void* weight_grad, void* grad_input, void* grad_params,
                         const Stream& stream);

}  // namespace accel::cuda
