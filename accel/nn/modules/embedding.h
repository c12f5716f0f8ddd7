// nn::Embedding: a lookup table of num_embeddings rows of embedding_dim values, indexed by
// int64 tensors; weights ~ N(0, 1) as PyTorch's, and the padding_idx row (if any) starts at
// zero and receives no gradient.
#pragma once

#include <optional>

#include "accel/nn/module.h"

namespace accel::nn {

class EmbeddingImpl : public Module {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim,
                std::optional<int64_t> padding_idx = std::nullopt);
  void reset_parameters();
  // indices of any shape -> [*indices.shape, embedding_dim].
  Tensor forward(const Tensor& indices) override;
  std::string extra_repr() const override;

  int64_t num_embeddings;
  int64_t embedding_dim;
  std::optional<int64_t> padding_idx;  // normalized to [0, num_embeddings)
  Tensor weight;                       // [num_embeddings, embedding_dim]
};
ACCEL_MODULE(Embedding);

}  // namespace accel::nn
