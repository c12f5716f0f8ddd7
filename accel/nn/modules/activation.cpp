// Activation layers: each forward is one activation function or functional form; PReLU owns
// its slopes.
#include "accel/nn/modules/activation.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/nn/functional/activations.h"

namespace accel::nn {

Tensor LeakyReLUImpl::forward(const Tensor& input) { return leaky_relu(input, negative_slope); }

GELUImpl::GELUImpl(std::string approximate_) : approximate(std::move(approximate_)) {
  ACCEL_CHECK(approximate == "none" || approximate == "tanh", "GELU",
              "approximate must be \"none\" or \"tanh\", got \"{}\"", approximate);
}

Tensor GELUImpl::forward(const Tensor& input) { return gelu(input, approximate); }
Tensor ELUImpl::forward(const Tensor& input) { return elu(input, alpha); }
Tensor CELUImpl::forward(const Tensor& input) { return celu(input, alpha); }
Tensor SoftplusImpl::forward(const Tensor& input) { return softplus(input, beta, threshold); }
Tensor HardtanhImpl::forward(const Tensor& input) { return hardtanh(input, min_val, max_val); }
Tensor SoftshrinkImpl::forward(const Tensor& input) { return softshrink(input, lambd); }
Tensor HardshrinkImpl::forward(const Tensor& input) { return hardshrink(input, lambd); }
Tensor ThresholdImpl::forward(const Tensor& input) {
  return accel::threshold(input, threshold, value);
}
Tensor RReLUImpl::forward(const Tensor& input) {
  return functional::rrelu(input, lower, upper, is_training());
}
Tensor GLUImpl::forward(const Tensor& input) { return functional::glu(input, dim); }
Tensor SoftmaxImpl::forward(const Tensor& input) { return softmax(input, dim); }
Tensor SoftminImpl::forward(const Tensor& input) { return functional::softmin(input, dim); }
Tensor LogSoftmaxImpl::forward(const Tensor& input) { return log_softmax(input, dim); }

Tensor Softmax2dImpl::forward(const Tensor& input) {
  ACCEL_CHECK(input.dim() == 3 || input.dim() == 4, "Softmax2d",
              "expected an input of shape [N, C, H, W] or [C, H, W], got {}", input.sizes());
  return softmax(input, -3);
}

PReLUImpl::PReLUImpl(int64_t num_parameters_, double init_)
    : num_parameters(num_parameters_), init(init_) {
  ACCEL_CHECK(num_parameters > 0, "PReLU", "num_parameters must be positive, got {}",
              num_parameters);
  weight = register_parameter("weight", empty({num_parameters}));
  reset_parameters();
}

void PReLUImpl::reset_parameters() {
  NoGradGuard no_grad;
  weight.fill_(init);
}

Tensor PReLUImpl::forward(const Tensor& input) { return functional::prelu(input, weight); }

std::string LeakyReLUImpl::extra_repr() const {
  return fmt::format("negative_slope={}", negative_slope);
}
std::string GELUImpl::extra_repr() const { return fmt::format("approximate='{}'", approximate); }
std::string ELUImpl::extra_repr() const { return fmt::format("alpha={}", alpha); }
std::string CELUImpl::extra_repr() const { return fmt::format("alpha={}", alpha); }
std::string SoftplusImpl::extra_repr() const {
  return fmt::format("beta={}, threshold={}", beta, threshold);
}
std::string HardtanhImpl::extra_repr() const {
  return fmt::format("min_val={}, max_val={}", min_val, max_val);
}
std::string SoftshrinkImpl::extra_repr() const { return fmt::format("{}", lambd); }
std::string HardshrinkImpl::extra_repr() const { return fmt::format("{}", lambd); }
std::string ThresholdImpl::extra_repr() const {
  return fmt::format("threshold={}, value={}", threshold, value);
}
std::string RReLUImpl::extra_repr() const {
  return fmt::format("lower={}, upper={}", lower, upper);
}
std::string PReLUImpl::extra_repr() const {
  return fmt::format("num_parameters={}", num_parameters);
}
std::string GLUImpl::extra_repr() const { return fmt::format("dim={}", dim); }
std::string SoftmaxImpl::extra_repr() const { return fmt::format("dim={}", dim); }
std::string SoftminImpl::extra_repr() const { return fmt::format("dim={}", dim); }
std::string LogSoftmaxImpl::extra_repr() const { return fmt::format("dim={}", dim); }

}  // namespace accel::nn
