// nn::Embedding: a lookup table of num_embeddings rows of embedding_dim values, indexed by
// int64 tensors; weights ~ N(0, 1) as PyTorch's, and the padding_idx row (if any) starts at
// zero and receives no gradient. nn::EmbeddingBag: the same table, its rows reduced over bags
// of indices (F::embedding_bag).
#pragma once

#include <optional>

#include "accel/nn/functional/embedding.h"
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

struct EmbeddingBagOptions {
  EmbeddingBagOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  ACCEL_ARG(int64_t, num_embeddings);
  ACCEL_ARG(int64_t, embedding_dim);
  ACCEL_ARG(functional::EmbeddingBagMode, mode) = functional::EmbeddingBagMode::Mean;
  ACCEL_ARG(bool, include_last_offset) = false;
  ACCEL_ARG(std::optional<int64_t>, padding_idx);
};

class EmbeddingBagImpl : public Module {
 public:
  explicit EmbeddingBagImpl(const EmbeddingBagOptions& options);
  EmbeddingBagImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingBagImpl(EmbeddingBagOptions(num_embeddings, embedding_dim)) {}
  void reset_parameters();
  // A 2-D input [B, N] (B bags of N indices) -> [B, embedding_dim].
  Tensor forward(const Tensor& input) override;
  // A 1-D input with the offsets where its bags start (and per-index weights, mode Sum).
  Tensor forward(const Tensor& input, const Tensor& offsets, const Tensor& per_sample_weights = {});
  std::string extra_repr() const override;

  EmbeddingBagOptions options;
  Tensor weight;  // [num_embeddings, embedding_dim]
};
ACCEL_MODULE(EmbeddingBag);

}  // namespace accel::nn
