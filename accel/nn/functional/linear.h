// torch.nn.functional's linear (the affine map of the Linear module and the attention
// projections) and bilinear.
#pragma once

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// input [..., in_features] x weight [out_features, in_features]^T (+ bias [out_features]).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});

// y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] (+ bias[o]): input1
// [*, in1_features] and input2 [*, in2_features] with the same leading dims, weight
// [out_features, in1_features, in2_features].
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
