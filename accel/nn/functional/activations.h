// Functional layers built from core ops (torch.nn.functional's linear, activations, dropout
// and embedding): the nn modules call these, and user code may call them directly. The
// activations that are core ops (accel::relu, ...) are here under their F:: names too.
#pragma once

#include <optional>

#include "accel/core/ops.h"
#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

using ::accel::gelu;
using ::accel::log_softmax;
using ::accel::relu;
using ::accel::sigmoid;
using ::accel::silu;
using ::accel::softmax;
using ::accel::tanh;

// input [..., in_features] x weight [out_features, in_features]^T (+ bias [out_features]).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});

// x where x > 0, else negative_slope * x (the gradient at 0 is negative_slope, as PyTorch).
Tensor leaky_relu(const Tensor& input, double negative_slope = 0.01);

// In training, zeroes each element with probability p and scales the rest by 1 / (1 - p);
// otherwise returns input unchanged.
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true,
               Generator* generator = nullptr);

// The rows of weight [num_embeddings, embedding_dim] that integer `indices` (any shape) pick:
// [*indices.shape, embedding_dim]. Rows picked at padding_idx pass no gradient.
Tensor embedding(const Tensor& indices, const Tensor& weight,
                 std::optional<int64_t> padding_idx = std::nullopt);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
