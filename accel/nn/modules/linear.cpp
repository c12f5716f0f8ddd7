// nn::Linear: F::linear (a matmul against the transposed weight plus a broadcast bias) after an
// input-shape check that names the layer; nn::Bilinear over F::bilinear.
#include "accel/nn/modules/linear.h"

#include <cmath>

#include "accel/core/factories.h"
#include "accel/nn/functional/linear.h"
#include "accel/nn/init.h"

namespace accel::nn {

LinearImpl::LinearImpl(const LinearOptions& options_) : options(options_) {
  ACCEL_CHECK(options.in_features_ >= 0 && options.out_features_ >= 0, "Linear",
              "in_features and out_features must be non-negative, got {} and {}",
              options.in_features_, options.out_features_);
  weight = register_parameter("weight", empty({options.out_features_, options.in_features_}));
  if (options.bias_) bias = register_parameter("bias", empty({options.out_features_}));
  reset_parameters();
}

void LinearImpl::reset_parameters() {
  if (weight.numel() > 0) init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    double fan_in = static_cast<double>(options.in_features_);
    double bound = fan_in > 0 ? 1.0 / std::sqrt(fan_in) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

Tensor LinearImpl::forward(const Tensor& input) {
  ACCEL_CHECK(input.dim() >= 1 && input.size(-1) == weight.size(1), "Linear",
              "expected input of shape [*, {}] (in_features = {}), got {}", weight.size(1),
              weight.size(1), input.sizes());
  return functional::linear(input, weight, bias);
}

std::string LinearImpl::extra_repr() const {
  return fmt::format("in_features={}, out_features={}, bias={}", options.in_features_,
                     options.out_features_, options.bias_);
}

BilinearImpl::BilinearImpl(const BilinearOptions& options_) : options(options_) {
  ACCEL_CHECK(options.in1_features_ > 0 && options.in2_features_ > 0 && options.out_features_ > 0,
              "Bilinear",
              "in1_features, in2_features and out_features must be positive, got {}, "
              "{} and {}",
              options.in1_features_, options.in2_features_, options.out_features_);
  weight = register_parameter(
      "weight", empty({options.out_features_, options.in1_features_, options.in2_features_}));
  if (options.bias_) bias = register_parameter("bias", empty({options.out_features_}));
  reset_parameters();
}

void BilinearImpl::reset_parameters() {
  const double bound = 1.0 / std::sqrt(static_cast<double>(options.in1_features_));
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
}

Tensor BilinearImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::bilinear(input1, input2, weight, bias);
}

std::string BilinearImpl::extra_repr() const {
  return fmt::format("in1_features={}, in2_features={}, out_features={}, bias={}",
                     options.in1_features_, options.in2_features_, options.out_features_,
                     options.bias_);
}

}  // namespace accel::nn
