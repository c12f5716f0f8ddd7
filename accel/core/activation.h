// The activation functions beyond the element-wise math of ops.h (torch's elu, selu, celu,
// softplus, hardtanh, relu6, hardsigmoid, hardswish, mish, log_sigmoid, softshrink,
// hardshrink, threshold, leaky_relu, softsign, tanhshrink), with PyTorch's parameters, values
// and gradients at the kinks. Each is one fused kernel forward and one backward, for floating
// inputs; the nn::functional names and the modules build on these.
#pragma once

#include "accel/core/tensor.h"

namespace accel {

// x where x > 0, else alpha * (exp(x) - 1).
Tensor elu(const Tensor& input, double alpha = 1.0);
// scale * elu(x, alpha) with the self-normalizing constants alpha = 1.6732632423543772,
// scale = 1.0507009873554805.
Tensor selu(const Tensor& input);
// x where x > 0, else alpha * (exp(x / alpha) - 1); alpha must not be 0.
Tensor celu(const Tensor& input, double alpha = 1.0);
// log(1 + exp(beta * x)) / beta, or x itself where beta * x > threshold; beta must not be 0.
Tensor softplus(const Tensor& input, double beta = 1.0, double threshold = 20.0);
// x clamped to [min_val, max_val] (min_val <= max_val); the gradient is 0 at and beyond the
// bounds.
Tensor hardtanh(const Tensor& input, double min_val = -1.0, double max_val = 1.0);
// hardtanh(x, 0, 6).
Tensor relu6(const Tensor& input);
// min(max(x + 3, 0), 6) / 6.
Tensor hardsigmoid(const Tensor& input);
// x * hardsigmoid(x).
Tensor hardswish(const Tensor& input);
// x * tanh(softplus(x)).
Tensor mish(const Tensor& input);
// log(sigmoid(x)), computed without overflow.
Tensor log_sigmoid(const Tensor& input);
// x - lambd above lambd, x + lambd below -lambd, else 0; lambd must be >= 0.
Tensor softshrink(const Tensor& input, double lambd = 0.5);
// 0 on [-lambd, lambd], else x.
Tensor hardshrink(const Tensor& input, double lambd = 0.5);
// value where x <= threshold, else x.
Tensor threshold(const Tensor& input, double threshold, double value);
// x where x > 0, else negative_slope * x (the gradient at 0 is negative_slope).
Tensor leaky_relu(const Tensor& input, double negative_slope = 0.01);
// x / (1 + |x|).
Tensor softsign(const Tensor& input);
// x - tanh(x).
Tensor tanhshrink(const Tensor& input);

}  // namespace accel
