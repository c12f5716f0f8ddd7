// CPU kernels for sampling at taps (contracts in kernels/backend.h): the weighted sum of input
// elements at given positions (grid_sample's interpolation), its adjoint into the input and the
// upstream gradient's correlation with the read elements (the weights' gradient).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/tap_shape.h"

namespace accel::cpu {

void tap_sample(ScalarType dtype, const TapShape& shape, const void* input, const int64_t* index,
                const void* weight, void* out);
void tap_sample_backward_input(ScalarType dtype, const TapShape& shape, const void* grad,
                               const int64_t* index, const void* weight, void* grad_input);
void tap_sample_backward_weight(ScalarType dtype, const TapShape& shape, const void* input,
                                const int64_t* index, const void* grad, void* grad_weight);

}  // namespace accel::cpu
