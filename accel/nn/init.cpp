// nn::init: the formulas of torch.nn.init, each filling the tensor in place under NoGradGuard
// (a parameter that requires grad is initialized without recording history).
#include "accel/nn/init.h"

#include <cmath>

#include "accel/core/autograd/grad_mode.h"
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

Tensor constant_(Tensor tensor, double value) {
  NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}

Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }
Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }

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
