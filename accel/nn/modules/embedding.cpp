// nn::Embedding and nn::EmbeddingBag: tables of rows looked up by F::embedding and
// F::embedding_bag; the row at padding_idx starts at zero and receives no gradient.
#include "accel/nn/modules/embedding.h"

#include <array>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/nn/functional/embedding.h"
#include "accel/nn/init.h"

namespace accel::nn {

namespace {

// The table's sizes checked and padding_idx made non-negative.
std::optional<int64_t> checked_table(int64_t num_embeddings, int64_t embedding_dim,
                                     std::optional<int64_t> padding_idx, const char* layer) {
  ACCEL_CHECK(num_embeddings >= 0 && embedding_dim >= 0, layer,
              "num_embeddings and embedding_dim must be non-negative, got {} and {}",
              num_embeddings, embedding_dim);
  if (!padding_idx) return padding_idx;
  ACCEL_CHECK(*padding_idx >= -num_embeddings && *padding_idx < num_embeddings, layer,
              "padding_idx must be within [{}, {}), got {}", -num_embeddings, num_embeddings,
              *padding_idx);
  return *padding_idx < 0 ? *padding_idx + num_embeddings : *padding_idx;
}

// N(0, 1), the padding row zero.
void reset_table(const Tensor& weight, std::optional<int64_t> padding_idx) {
  init::normal_(weight);
  if (padding_idx) {
    NoGradGuard no_grad;
    weight.select(0, *padding_idx).zero_();
  }
}

}  // namespace

EmbeddingImpl::EmbeddingImpl(int64_t num_embeddings_, int64_t embedding_dim_,
                             std::optional<int64_t> padding_idx_)
    : num_embeddings(num_embeddings_),
      embedding_dim(embedding_dim_),
      padding_idx(checked_table(num_embeddings_, embedding_dim_, padding_idx_, "Embedding")) {
  weight = register_parameter("weight", empty({num_embeddings, embedding_dim}));
  reset_parameters();
}

void EmbeddingImpl::reset_parameters() { reset_table(weight, padding_idx); }

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return functional::embedding(indices, weight, padding_idx);
}

std::string EmbeddingImpl::extra_repr() const {
  std::string text = fmt::format("{}, {}", num_embeddings, embedding_dim);
  if (padding_idx) text += fmt::format(", padding_idx={}", *padding_idx);
  return text;
}

EmbeddingBagImpl::EmbeddingBagImpl(const EmbeddingBagOptions& options_) : options(options_) {
  options.padding_idx(checked_table(options.num_embeddings(), options.embedding_dim(),
                                    options.padding_idx(), "EmbeddingBag"));
  weight = register_parameter("weight", empty({options.num_embeddings(), options.embedding_dim()}));
  reset_parameters();
}

void EmbeddingBagImpl::reset_parameters() { reset_table(weight, options.padding_idx()); }

Tensor EmbeddingBagImpl::forward(const Tensor& input) { return forward(input, {}); }

Tensor EmbeddingBagImpl::forward(const Tensor& input, const Tensor& offsets,
                                 const Tensor& per_sample_weights) {
  return functional::embedding_bag(input, weight,
                                   functional::EmbeddingBagFuncOptions()
                                       .offsets(offsets)
                                       .mode(options.mode())
                                       .per_sample_weights(per_sample_weights)
                                       .include_last_offset(options.include_last_offset())
                                       .padding_idx(options.padding_idx()));
}

std::string EmbeddingBagImpl::extra_repr() const {
  constexpr std::array<const char*, 3> kModes = {"sum", "mean", "max"};
  std::string text =
      fmt::format("{}, {}, mode='{}'", options.num_embeddings(), options.embedding_dim(),
                  kModes[static_cast<size_t>(options.mode())]);
  if (options.padding_idx()) text += fmt::format(", padding_idx={}", *options.padding_idx());
  return text;
}

}  // namespace accel::nn
