// torch.nn.functional.embedding: rows of a table picked by integer indices.
#pragma once

#include <optional>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// The rows of weight [num_embeddings, embedding_dim] that integer `indices` (any shape) pick:
// [*indices.shape, embedding_dim]. Rows picked at padding_idx pass no gradient.
Tensor embedding(const Tensor& indices, const Tensor& weight,
                 std::optional<int64_t> padding_idx = std::nullopt);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
