// What the transformer's encoder and decoder layers share, for their implementations: the
// checks of their options, their attention and norm modules, the feed-forward block, and the
// stack of equal layers their encoder and decoder hold.
#pragma once

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/ops.h"
#include "accel/nn/modules/transformer.h"

namespace accel::nn {

// Checks `options` and gives it relu where it has no activation.
inline void check_layer_options(TransformerLayerOptions& options, const char* layer) {
  ACCEL_CHECK(options.dim_feedforward() > 0, layer, "dim_feedforward must be positive, got {}",
              options.dim_feedforward());
  if (!options.activation()) options.activation([](const Tensor& x) { return relu(x); });
}

inline MultiheadAttention attention_of(const TransformerLayerOptions& options) {
  return MultiheadAttention(MultiheadAttentionOptions(options.d_model(), options.nhead())
                                .dropout(options.dropout())
                                .batch_first(options.batch_first()));
}

inline LayerNorm norm_of(const TransformerLayerOptions& options) {
  return LayerNorm(LayerNormOptions({options.d_model()}).eps(options.layer_norm_eps()));
}

// x + block(norm(x)) with norm_first, else norm(x + block(x)).
template <typename Block>
Tensor with_residual(const TransformerLayerOptions& options, LayerNormImpl& norm, const Tensor& x,
                     Block block) {
  return options.norm_first() ? x + block(norm.forward(x)) : norm.forward(x + block(x));
}

// linear2(dropout(activation(linear1(x)))).
inline Tensor feed_forward(const TransformerLayerOptions& options, LinearImpl& linear1,
                           DropoutImpl& dropout, LinearImpl& linear2, const Tensor& x) {
  return linear2.forward(dropout.forward(options.activation()(linear1.forward(x))));
}

// `count` (at least 1) layers made from `options` ("0", "1", ...) for the stack `owner`, all
// starting with the first one's parameters, as PyTorch's and LibTorch's copies of one layer do.
template <typename Layer>
ModuleList copies_of(const TransformerLayerOptions& options, int64_t count, const char* owner) {
  ACCEL_CHECK(count >= 1, owner, "num_layers must be at least 1, got {}", count);
  ModuleList layers;
  const Layer first(options);
  layers->push_back(first);
  const std::vector<Tensor> initial = first->parameters();
  for (int64_t i = 1; i < count; ++i) {
    const Layer layer(options);
    NoGradGuard copying;
    const std::vector<Tensor> params = layer->parameters();
    for (size_t p = 0; p < params.size(); ++p) params[p].copy_(initial[p]);
    layers->push_back(layer);
  }
  return layers;
}

}  // namespace accel::nn
