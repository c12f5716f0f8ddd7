// torch.nn.functional.embedding and embedding_bag: rows of a table picked by integer indices,
// as they are or reduced over bags of indices.
#pragma once

#include <optional>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// The rows of weight [num_embeddings, embedding_dim] that integer `indices` (any shape) pick:
// [*indices.shape, embedding_dim]. Rows picked at padding_idx pass no gradient.
Tensor embedding(const Tensor& indices, const Tensor& weight,
                 std::optional<int64_t> padding_idx = std::nullopt);

// How a bag's rows become one: their sum, mean or element-wise maximum.
enum class EmbeddingBagMode { Sum, Mean, Max };

struct EmbeddingBagFuncOptions {
  // With a 1-D input: where each bag starts (offsets[0] = 0, non-decreasing); a bag ends where
  // the next starts, the last at the input's end. A 2-D input [B, N] is B bags of N and takes
  // no offsets.
  ACCEL_ARG(Tensor, offsets);
  ACCEL_ARG(EmbeddingBagMode, mode) = EmbeddingBagMode::Mean;
  // Mode Sum only: each index's row scaled by its weight (the input's shape).
  ACCEL_ARG(Tensor, per_sample_weights);
  // offsets holds B + 1 entries, the last one where the last bag ends.
  ACCEL_ARG(bool, include_last_offset) = false;
  // Indices equal to it are left out of their bags (and of a mean's count).
  ACCEL_ARG(std::optional<int64_t>, padding_idx);
};

// One row per bag, [B, embedding_dim]: the reduction of the rows its indices pick (zeros for
// an empty bag). Reads the input and offsets on the host to lay the bags out.
Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                     const EmbeddingBagFuncOptions& options = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
