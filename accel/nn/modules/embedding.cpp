// nn::Embedding: a table of rows looked up by F::embedding; the row at padding_idx starts at
// zero and receives no gradient.
#include "accel/nn/modules/embedding.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/nn/functional/embedding.h"
#include "accel/nn/init.h"

namespace accel::nn {

EmbeddingImpl::EmbeddingImpl(int64_t num_embeddings_, int64_t embedding_dim_,
                             std::optional<int64_t> padding_idx_)
    : num_embeddings(num_embeddings_), embedding_dim(embedding_dim_), padding_idx(padding_idx_) {
  ACCEL_CHECK(num_embeddings >= 0 && embedding_dim >= 0, "Embedding",
              "num_embeddings and embedding_dim must be non-negative, got {} and {}",
              num_embeddings, embedding_dim);
  if (padding_idx) {
    ACCEL_CHECK(*padding_idx >= -num_embeddings && *padding_idx < num_embeddings, "Embedding",
                "padding_idx must be within [{}, {}), got {}", -num_embeddings, num_embeddings,
                *padding_idx);
    if (*padding_idx < 0) *padding_idx += num_embeddings;
  }
  weight = register_parameter("weight", empty({num_embeddings, embedding_dim}));
  reset_parameters();
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (padding_idx) {
    NoGradGuard no_grad;
    weight.select(0, *padding_idx).zero_();
  }
}

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return functional::embedding(indices, weight, padding_idx);
}

std::string EmbeddingImpl::extra_repr() const {
  std::string text = fmt::format("{}, {}", num_embeddings, embedding_dim);
  if (padding_idx) text += fmt::format(", padding_idx={}", *padding_idx);
  return text;
}

}  // namespace accel::nn
