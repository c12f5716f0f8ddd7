// torch.nn.functional's dropouts: element-wise (dropout), whole channels (dropout1d/2d/3d),
// and the self-normalizing variants for SELU networks (alpha_dropout, feature_alpha_dropout).
// All are the identity unless training; p is the probability of dropping.
#pragma once

#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// In training, zeroes each element with probability p and scales the rest by 1 / (1 - p);
// otherwise returns input unchanged.
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true,
               Generator* generator = nullptr);

// Zeroes whole channels (dim 1 of a batched input) with probability p, scaling the rest by
// 1 / (1 - p). Inputs: dropout1d [N, C, L] or [C, L]; dropout2d [N, C, H, W] (a 3-D input is
// taken as [N, C, L], with a warning, as in PyTorch); dropout3d [N, C, D, H, W] or [C, D, H, W].
Tensor dropout1d(const Tensor& input, double p = 0.5, bool training = true,
                 Generator* generator = nullptr);
Tensor dropout2d(const Tensor& input, double p = 0.5, bool training = true,
                 Generator* generator = nullptr);
Tensor dropout3d(const Tensor& input, double p = 0.5, bool training = true,
                 Generator* generator = nullptr);

// Sets dropped elements to SELU's negative saturation value and applies the affine map that
// keeps a standard normal input's mean 0 and variance 1.
Tensor alpha_dropout(const Tensor& input, double p = 0.5, bool training = false,
                     Generator* generator = nullptr);
// alpha_dropout of whole channels (dim 1) of an input with a batch dim.
Tensor feature_alpha_dropout(const Tensor& input, double p = 0.5, bool training = false,
                             Generator* generator = nullptr);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
