// nn::TransformerEncoderLayer: x = norm1(x + dropout1(self_attn(x))), then
// norm2(x + dropout2(linear2(dropout(activation(linear1(x)))))), the attention computed without
// its weights (norm_first: x + dropout1(self_attn(norm1(x))), and so on); nn::TransformerEncoder
// chains such layers.
#include "accel/nn/modules/transformer.h"

#include "accel/core/ops.h"
#include "accel/nn/modules/transformer_blocks.h"

namespace accel::nn {

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(
    const TransformerEncoderLayerOptions& options_)
    : options(options_) {
  check_layer_options(options, "TransformerEncoderLayer");
  const int64_t d = options.d_model();
  self_attn = register_module("self_attn", attention_of(options));
  linear1 = register_module("linear1", Linear(d, options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), d));
  norm1 = register_module("norm1", norm_of(options));
  norm2 = register_module("norm2", norm_of(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  const Tensor x = with_residual(options, *norm1, src, [&](const Tensor& in) {
    return dropout1->forward(std::get<0>(
        self_attn->forward(in, in, in, src_key_padding_mask, /*need_weights=*/false, src_mask)));
  });
  return with_residual(options, *norm2, x, [&](const Tensor& in) {
    return dropout2->forward(feed_forward(options, *linear1, *dropout, *linear2, in));
  });
}

TransformerEncoderImpl::TransformerEncoderImpl(const TransformerEncoderOptions& options_)
    : options(options_) {
  layers = register_module(
      "layers", copies_of<TransformerEncoderLayer>(options.encoder_layer(), options.num_layers(),
                                                   "TransformerEncoder"));
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
