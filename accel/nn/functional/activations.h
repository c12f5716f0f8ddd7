// Functional layers built from core ops (torch.nn.functional's linear, leaky_relu and
// dropout): the nn modules call these, and user code may call them directly.
#pragma once

#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// input [..., in_features] x weight [out_features, in_features]^T (+ bias [out_features]).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});

// x where x > 0, else negative_slope * x (the gradient at 0 is negative_slope, as PyTorch).
Tensor leaky_relu(const Tensor& input, double negative_slope = 0.01);

// In training, zeroes each element with probability p and scales the rest by 1 / (1 - p);
// otherwise returns input unchanged.
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true,
               Generator* generator = nullptr);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
