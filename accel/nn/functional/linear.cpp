// linear as matmul plus a broadcast add, which supply the gradients.
#include "accel/nn/functional/linear.h"

#include "accel/base/error.h"
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

}  // namespace accel::nn::functional
