// torch.nn.functional.dropout.
#pragma once

#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// In training, zeroes each element with probability p and scales the rest by 1 / (1 - p);
// otherwise returns input unchanged.
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true,
               Generator* generator = nullptr);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
