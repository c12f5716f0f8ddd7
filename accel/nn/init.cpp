// nn::init: the formulas of torch.nn.init, each filling the tensor in place under NoGradGuard
// (a parameter that requires grad is initialized without recording history).
#include "accel/nn/init.h"

#include <algorithm>
#include <cmath>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/random.h"

namespace accel::nn::init {
namespace {

double fan_for_mode(const Tensor& tensor, std::string_view mode, const char* op) {
  auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(tensor);
  if (mode == "fan_in") return static_cast<double>(fan_in);
  if (mode == "fan_out") return static_cast<double>(fan_out);
  fail(op, "mode must be \"fan_in\" or \"fan_out\", got \"{}\"", mode);
}

double kaiming_std(const Tensor& tensor, double a, std::string_view mode,
                   std::string_view nonlinearity, const char* op) {
  double fan = fan_for_mode(tensor, mode, op);
  ACCEL_CHECK(fan > 0, op, "cannot initialize a tensor with zero elements (shape {})",
              tensor.sizes());
  return calculate_gain(nonlinearity, a) / std::sqrt(fan);
}

double xavier_std(const Tensor& tensor, double gain) {
  auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(tensor);
  return gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
}

}  // namespace

double calculate_gain(std::string_view nonlinearity, std::optional<double> param) {
  if (nonlinearity == "linear" || nonlinearity == "conv1d" || nonlinearity == "conv2d" ||
      nonlinearity == "conv3d" || nonlinearity == "conv_transpose1d" ||
      nonlinearity == "conv_transpose2d" || nonlinearity == "conv_transpose3d" ||
      nonlinearity == "sigmoid") {
    return 1.0;
  }
  if (nonlinearity == "tanh") return 5.0 / 3.0;
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") {
    double slope = param.value_or(0.01);
    return std::sqrt(2.0 / (1.0 + slope * slope));
  }
  if (nonlinearity == "selu") return 3.0 / 4.0;
  fail("calculate_gain", "unsupported nonlinearity \"{}\"", nonlinearity);
}

std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& tensor) {
  ACCEL_CHECK(tensor.dim() >= 2, "calculate_fan_in_and_fan_out",
              "fan in and fan out need a tensor of at least 2 dims, got shape {}", tensor.sizes());
  int64_t receptive_field = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive_field *= tensor.size(d);
  return {tensor.size(1) * receptive_field, tensor.size(0) * receptive_field};
}

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard no_grad;
  accel::uniform_(tensor, low, high);
  return tensor;
}

Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard no_grad;
  accel::normal_(tensor, mean, std);
  return tensor;
}

Tensor trunc_normal_(Tensor tensor, double mean, double std, double a, double b) {
  ACCEL_CHECK(std > 0 && a < b, "trunc_normal_",
              "expected std > 0 and a < b, got std {}, a {}, b {}", std, a, b);
  NoGradGuard no_grad;
  // The standard normal's CDF at the bounds, as erf's argument range [2 * cdf - 1].
  const auto cdf = [](double x) { return (1.0 + std::erf(x / std::sqrt(2.0))) / 2.0; };
  const double low = cdf((a - mean) / std), high = cdf((b - mean) / std);
  accel::uniform_(tensor, 2 * low - 1, 2 * high - 1);
  tensor.copy_((tensor.erfinv() * (std * std::sqrt(2.0)) + mean).clamp(a, b));
  return tensor;
}

Tensor constant_(Tensor tensor, double value) {
  NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}

Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }
Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }

Tensor eye_(Tensor tensor) {
  ACCEL_CHECK(tensor.dim() == 2, "eye_", "only tensors with 2 dimensions are supported, got {}",
              tensor.sizes());
  NoGradGuard no_grad;
  tensor.copy_(eye(tensor.size(0), tensor.size(1), tensor.options()));
  return tensor;
}

Tensor dirac_(Tensor tensor, int64_t groups) {
  ACCEL_CHECK(tensor.dim() >= 3 && tensor.dim() <= 5, "dirac_",
              "only tensors with 3, 4, or 5 dimensions are supported, got {}", tensor.sizes());
  ACCEL_CHECK(groups > 0 && tensor.size(0) % groups == 0, "dirac_",
              "dim 0 (size {}) must be divisible by groups ({})", tensor.size(0), groups);
  NoGradGuard no_grad;
  tensor.zero_();
  const int64_t out_per_group = tensor.size(0) / groups;
  const int64_t channels = std::min(out_per_group, tensor.size(1));
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t d = 0; d < channels; ++d) {
      Tensor tap = tensor[g * out_per_group + d][d];
      while (tap.dim() > 0) tap = tap[tap.size(0) / 2];
      tap.fill_(1);
    }
  }
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  double bound = std::sqrt(3.0) * xavier_std(tensor, gain);
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  double std = xavier_std(tensor, gain);
  return normal_(std::move(tensor), 0, std);
}

Tensor kaiming_uniform_(Tensor tensor, double a, std::string_view mode,
                        std::string_view nonlinearity) {
  double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity, "kaiming_uniform_");
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a, std::string_view mode,
                       std::string_view nonlinearity) {
  double std = kaiming_std(tensor, a, mode, nonlinearity, "kaiming_normal_");
  return normal_(std::move(tensor), 0, std);
}

}  // namespace accel::nn::init
