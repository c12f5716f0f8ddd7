// linear, leaky_relu and dropout as compositions of core ops, which supply the gradients
// (matmul, where and mul record their own backward).
#include "accel/nn/functional/activations.h"

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  constexpr const char* op = "linear";
  ACCEL_CHECK(weight.dim() == 2, op, "expected weight of shape [out_features, in_features], got {}",
              weight.sizes());
  ACCEL_CHECK(input.dim() >= 1 && input.size(-1) == weight.size(1), op,
              "input of shape {} does not match in_features {} (weight {}): the last dim must "
              "be {}",
              input.sizes(), weight.size(1), weight.sizes(), weight.size(1));
  if (bias.defined()) {
    ACCEL_CHECK(bias.dim() == 1 && bias.size(0) == weight.size(0), op,
                "expected bias of shape [{}] (out_features), got {}", weight.size(0), bias.sizes());
  }
  const Tensor out = matmul(input, weight.t());
  return bias.defined() ? out + bias : out;
}

Tensor leaky_relu(const Tensor& input, double negative_slope) {
  return where(input > 0, input, input * negative_slope);
}

Tensor dropout(const Tensor& input, double p, bool training, Generator* generator) {
  ACCEL_CHECK(p >= 0 && p <= 1, "dropout", "probability must be in [0, 1], got {}", p);
  if (!training || p == 0) return input;
  if (p == 1) return input * zeros_like(input);
  const Tensor keep = bernoulli(input.sizes(), 1 - p,
                                TensorOptions(input.dtype()).device(input.device()), generator);
  return input * keep.div(1 - p);
}

}  // namespace accel::nn::functional
