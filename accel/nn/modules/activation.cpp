// Activation layers: each forward is one core op or functional form.
#include "accel/nn/modules/activation.h"

#include "accel/core/ops.h"
#include "accel/nn/functional/activations.h"

namespace accel::nn {

Tensor ReLUImpl::forward(const Tensor& input) { return relu(input); }

Tensor LeakyReLUImpl::forward(const Tensor& input) {
  return functional::leaky_relu(input, negative_slope);
}

GELUImpl::GELUImpl(std::string approximate_) : approximate(std::move(approximate_)) {
  ACCEL_CHECK(approximate == "none" || approximate == "tanh", "GELU",
              "approximate must be \"none\" or \"tanh\", got \"{}\"", approximate);
}

Tensor GELUImpl::forward(const Tensor& input) { return gelu(input, approximate); }
Tensor SiLUImpl::forward(const Tensor& input) { return silu(input); }
Tensor SigmoidImpl::forward(const Tensor& input) { return sigmoid(input); }
Tensor TanhImpl::forward(const Tensor& input) { return tanh(input); }
Tensor SoftmaxImpl::forward(const Tensor& input) { return softmax(input, dim); }
Tensor LogSoftmaxImpl::forward(const Tensor& input) { return log_softmax(input, dim); }

std::string LeakyReLUImpl::extra_repr() const {
  return fmt::format("negative_slope={}", negative_slope);
}

std::string GELUImpl::extra_repr() const { return fmt::format("approximate='{}'", approximate); }

std::string SoftmaxImpl::extra_repr() const { return fmt::format("dim={}", dim); }

std::string LogSoftmaxImpl::extra_repr() const { return fmt::format("dim={}", dim); }

}  // namespace accel::nn
