// CUDA sampling at taps (contracts in kernels/backend.h), the device twins of
// kernels/cpu/sampling.cpp.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/tap_shape.h"

namespace accel::cuda {

void tap_sample(ScalarType dtype, const TapShape& shape, const void* input, const int64_t* index,
                const void* weight, void* out, const Stream& stream);
void tap_sample_backward_input(ScalarType dtype, const TapShape& shape, const void* grad,
                               const int64_t* index, const void* weight, void* grad_input,
                               const Stream& stream);
void tap_sample_backward_weight(ScalarType dtype, const TapShape& shape, const void* input,
                                const int64_t* index, const void* grad, void* grad_weight,
                                const Stream& stream);

}  // namespace accel::cuda
