// nn::init: in-place weight initializers with torch.nn.init's formulas (fans, gains, bounds),
// run without recording autograd history. Layers use them for their PyTorch defaults.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "accel/core/tensor.h"

namespace accel::nn::init {

// torch.nn.init.calculate_gain: "linear", "conv1d", "conv2d", "conv3d", "sigmoid" -> 1,
// "tanh" -> 5/3, "relu" -> sqrt(2), "leaky_relu" -> sqrt(2 / (1 + slope^2)) (slope = param,
// 0.01 when absent), "selu" -> 3/4.
double calculate_gain(std::string_view nonlinearity, std::optional<double> param = std::nullopt);
// (fan_in, fan_out) of a weight of at least 2 dims: [out, in, *receptive field].
std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& tensor);

Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
// The normal distribution N(mean, std^2) truncated to [a, b]: uniform samples of the normal's
// CDF between a's and b's, mapped through its inverse (erfinv), as torch.nn.init does.
Tensor trunc_normal_(Tensor tensor, double mean = 0, double std = 1, double a = -2, double b = 2);
Tensor constant_(Tensor tensor, double value);
Tensor zeros_(Tensor tensor);
Tensor ones_(Tensor tensor);
// A 2-D tensor as the identity matrix (ones on the main diagonal of a rectangle).
Tensor eye_(Tensor tensor);
// A 3-, 4- or 5-D convolution weight [out, in, k...] as the identity convolution: in each of
// `groups` groups, output channel d takes input channel d at the kernel's centre.
Tensor dirac_(Tensor tensor, int64_t groups = 1);
Tensor xavier_uniform_(Tensor tensor, double gain = 1);
Tensor xavier_normal_(Tensor tensor, double gain = 1);
// mode: "fan_in" or "fan_out"; `a` is the leaky_relu slope used by the gain.
Tensor kaiming_uniform_(Tensor tensor, double a = 0, std::string_view mode = "fan_in",
                        std::string_view nonlinearity = "leaky_relu");
Tensor kaiming_normal_(Tensor tensor, double a = 0, std::string_view mode = "fan_in",
                       std::string_view nonlinearity = "leaky_relu");

}  // namespace accel::nn::init
