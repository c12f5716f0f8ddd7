// nn::Linear: F::linear (a matmul against the transposed weight plus a broadcast bias) after an
// input-shape check that names the layer.
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

}  // namespace accel::nn
