// Gradient clipping over a set of parameters (torch.nn.utils.clip_grad_norm_ and
// clip_grad_value_) and flattening parameters into one vector (parameters_to_vector).
// Parameters without a gradient are skipped, as in PyTorch.
#pragma once

#include <limits>

#include "accel/core/tensor.h"

namespace accel::nn::utils {

// Scales all gradients by min(1, max_norm / (total_norm + 1e-6)), where total_norm is the
// norm_type-norm of all gradients taken together (norm_type may be infinity), and returns
// total_norm as a 0-dim tensor without reading it back. With error_if_nonfinite a NaN or
// infinite total norm throws (this reads it back).
Tensor clip_grad_norm_(TensorList parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);

// Clamps every gradient element into [-clip_value, clip_value].
void clip_grad_value_(TensorList parameters, double clip_value);

// The parameters' values flattened and concatenated, in order.
Tensor parameters_to_vector(TensorList parameters);

}  // namespace accel::nn::utils
