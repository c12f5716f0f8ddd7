// CPU kernel for mixed-precision gradient unscaling (kernels/common/loss_scaling.h's rule over
// one contiguous gradient).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"

namespace accel::cpu {

// Multiplies the n elements of `grad` (of `dtype`) by inv_scale in place; sets *found_inf to 1
// when any element was inf or NaN before unscaling.
void unscale_gradient(ScalarType dtype, int64_t n, void* grad, double inv_scale, float* found_inf);

}  // namespace accel::cpu
