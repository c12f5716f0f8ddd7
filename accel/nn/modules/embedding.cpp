// nn::Embedding: index_select over the weight rows. Rows looked up at padding_idx come from
// the detached weight, so they keep their values but pass no gradient (PyTorch's rule).
#include "accel/nn/modules/embedding.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
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
  ACCEL_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32, "Embedding",
              "expected integer indices (int64 or int32), got {}", indices.dtype());
  DimVector out_sizes(indices.sizes().begin(), indices.sizes().end());
  out_sizes.push_back(embedding_dim);
  Tensor rows = index_select(weight, 0, indices.reshape({-1}));
  if (padding_idx) {
    Tensor is_padding = (indices.reshape({-1, 1}) == *padding_idx);
    rows = where(is_padding, rows.detach(), rows);
  }
  return rows.view(as_ref(out_sizes));
}

std::string EmbeddingImpl::extra_repr() const {
  std::string text = fmt::format("{}, {}", num_embeddings, embedding_dim);
  if (padding_idx) text += fmt::format(", padding_idx={}", *padding_idx);
  return text;
}

}  // namespace accel::nn
