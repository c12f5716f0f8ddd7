// CPU kernels for sampling at taps (contracts in kernels/backend.h): grid_sample's taps, the
// weighted sum of input elements at given positions (grid_sample's interpolation), its adjoint
// into the input and the upstream gradient's correlation with the read elements (the weights'
// gradient).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/tap_shape.h"

namespace accel::cpu {

void grid_sample_taps(ScalarType dtype, const GridTapsShape& shape, const void* grid,
                      int32_t* index, void* weight, void* weight_grad);

void tap_sample(ScalarType dtype, const TapShape& shape, const void* input, const int32_t* index,
                const void* weight, void* out);
void tap_sample_backward(ScalarType dtype, const TapShape& shape, const void* input,
                         const void* grad, const int32_t* index, const void* weight, int64_t params,
                         const void* weight_grad, void* grad_input, void* grad_params);

}  // namespace accel::cpu
