// nn::TransformerEncoderLayer: x = norm1(x + dropout1(self_attn(x))), then
// norm2(x + dropout2(linear2(dropout(activation(linear1(x)))))), the attention computed without
// its weights; nn::TransformerEncoder chains such layers.
#include "accel/nn/modules/transformer.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/ops.h"

namespace accel::nn {

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(
    const TransformerEncoderLayerOptions& options_)
    : options(options_) {
  const int64_t d = options.d_model();
  ACCEL_CHECK(options.dim_feedforward() > 0, "TransformerEncoderLayer",
              "dim_feedforward must be positive, got {}", options.dim_feedforward());
  if (!options.activation()) options.activation([](const Tensor& x) { return relu(x); });
  self_attn = register_module(
      "self_attn",
      MultiheadAttention(MultiheadAttentionOptions(d, options.nhead()).dropout(options.dropout())));
  linear1 = register_module("linear1", Linear(d, options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), d));
  const auto norm = LayerNormOptions({d}).eps(options.layer_norm_eps());
  norm1 = register_module("norm1", LayerNorm(norm));
  norm2 = register_module("norm2", LayerNorm(norm));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  const Tensor attended = std::get<0>(
      self_attn->forward(src, src, src, src_key_padding_mask, /*need_weights=*/false, src_mask));
  const Tensor x = norm1->forward(src + dropout1->forward(attended));
  const Tensor fed = linear2->forward(dropout->forward(options.activation()(linear1->forward(x))));
  return norm2->forward(x + dropout2->forward(fed));
}

TransformerEncoderImpl::TransformerEncoderImpl(const TransformerEncoderOptions& options_)
    : options(options_) {
  ACCEL_CHECK(options.num_layers() >= 1, "TransformerEncoder",
              "num_layers must be at least 1, got {}", options.num_layers());
  layers = register_module("layers", ModuleList());
  const TransformerEncoderLayer first(options.encoder_layer());
  layers->push_back(first);
  const std::vector<Tensor> initial = first->parameters();
  for (int64_t i = 1; i < options.num_layers(); ++i) {
    const TransformerEncoderLayer layer(options.encoder_layer());
    NoGradGuard copying;
    const std::vector<Tensor> params = layer->parameters();
    for (size_t p = 0; p < params.size(); ++p) params[p].copy_(initial[p]);
    layers->push_back(layer);
  }
  if (!options.norm().is_empty()) norm = register_module("norm", options.norm());
}

Tensor TransformerEncoderImpl::forward(const Tensor& src, const Tensor& mask,
                                       const Tensor& src_key_padding_mask) {
  Tensor x = src;
  for (const auto& layer : *layers) {
    x = std::static_pointer_cast<TransformerEncoderLayerImpl>(layer)->forward(x, mask,
                                                                              src_key_padding_mask);
  }
  return norm.is_empty() ? x : norm->forward(x);
}

}  // namespace accel::nn
