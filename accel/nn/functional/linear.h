// torch.nn.functional.linear: the affine map the Linear module and attention projections use.
#pragma once

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// input [..., in_features] x weight [out_features, in_features]^T (+ bias [out_features]).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
