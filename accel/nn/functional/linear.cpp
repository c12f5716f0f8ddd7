// linear as matmul plus a broadcast add; bilinear as one matmul against the weight laid out
// [in1, out * in2], then a product with input2 summed over in2. The ops supply the gradients.
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

Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias) {
  constexpr const char* op = "bilinear";
  ACCEL_CHECK(weight.dim() == 3, op,
              "expected weight of shape [out_features, in1_features, in2_features], got {}",
              weight.sizes());
  const int64_t out = weight.size(0), in1 = weight.size(1), in2 = weight.size(2);
  ACCEL_CHECK(input1.dim() >= 1 && input1.dim() == input2.dim() && input1.size(-1) == in1 &&
                  input2.size(-1) == in2,
              op,
              "expected input1 [*, {}] and input2 [*, {}] (weight {}) with the same leading "
              "dims, got {} and {}",
              in1, in2, weight.sizes(), input1.sizes(), input2.sizes());
  const IntArrayRef leading(input1.sizes().data(), input1.sizes().size() - 1);
  ACCEL_CHECK(leading == IntArrayRef(input2.sizes().data(), input2.sizes().size() - 1), op,
              "input1 {} and input2 {} must have the same leading dims", input1.sizes(),
              input2.sizes());
  if (bias.defined()) {
    ACCEL_CHECK(bias.dim() == 1 && bias.size(0) == out, op,
                "expected bias of shape [{}] (out_features), got {}", out, bias.sizes());
  }
  const Tensor rows1 = input1.reshape({-1, in1});
  const Tensor rows2 = input2.reshape({-1, in2});
  const int64_t rows = rows1.size(0);
  const Tensor partial = matmul(rows1, weight.permute({1, 0, 2}).reshape({in1, out * in2}));
  Tensor y = (partial.view({rows, out, in2}) * rows2.unsqueeze(1)).sum({2});
  if (bias.defined()) y = y + bias;
  DimVector shape(leading.begin(), leading.end());
  shape.push_back(out);
  return y.view(as_ref(shape));
}

}  // namespace accel::nn::functional
