// linear, leaky_relu, dropout and embedding as compositions of core ops, which supply the
// gradients (matmul, where, mul and index_select record their own backward).
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

// Rows looked up at padding_idx come from the detached weight, so they keep their values but
// pass no gradient (PyTorch's rule).
Tensor embedding(const Tensor& indices, const Tensor& weight, std::optional<int64_t> padding_idx) {
  constexpr const char* op = "embedding";
  ACCEL_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32, op,
              "expected integer indices (int64 or int32), got {}", indices.dtype());
  ACCEL_CHECK(weight.dim() == 2, op,
              "expected weight of shape [num_embeddings, embedding_dim], got {}", weight.sizes());
  const int64_t rows_in_table = weight.size(0);
  if (padding_idx) {
    ACCEL_CHECK(*padding_idx >= -rows_in_table && *padding_idx < rows_in_table, op,
                "padding_idx must be within [{}, {}), got {}", -rows_in_table, rows_in_table,
                *padding_idx);
    if (*padding_idx < 0) *padding_idx += rows_in_table;
  }
  DimVector out_sizes(indices.sizes().begin(), indices.sizes().end());
  out_sizes.push_back(weight.size(1));
  Tensor rows = index_select(weight, 0, indices.reshape({-1}));
  if (padding_idx) {
    Tensor is_padding = (indices.reshape({-1, 1}) == *padding_idx);
    rows = where(is_padding, rows.detach(), rows);
  }
  return rows.view(as_ref(out_sizes));
}

}  // namespace accel::nn::functional
