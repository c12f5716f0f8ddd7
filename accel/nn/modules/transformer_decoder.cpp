// nn::TransformerDecoderLayer: x = norm1(x + dropout1(self_attn(x))), then
// x = norm2(x + dropout2(multihead_attn(x, memory))), then
// norm3(x + dropout3(linear2(dropout(activation(linear1(x)))))), each attention computed
// without its weights (norm_first: x + dropout1(self_attn(norm1(x))), and so on);
// nn::TransformerDecoder chains such layers over one memory.
#include "accel/nn/modules/transformer_decoder.h"

#include "accel/nn/modules/transformer_blocks.h"

namespace accel::nn {

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(
    const TransformerDecoderLayerOptions& options_)
    : options(options_) {
  check_layer_options(options, "TransformerDecoderLayer");
  const int64_t d = options.d_model();
  self_attn = register_module("self_attn", attention_of(options));
  multihead_attn = register_module("multihead_attn", attention_of(options));
  linear1 = register_module("linear1", Linear(d, options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), d));
  norm1 = register_module("norm1", norm_of(options));
  norm2 = register_module("norm2", norm_of(options));
  norm3 = register_module("norm3", norm_of(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
  dropout3 = register_module("dropout3", Dropout(options.dropout()));
}

Tensor TransformerDecoderLayerImpl::forward(const Tensor& tgt, const Tensor& memory,
                                            const Tensor& tgt_mask, const Tensor& memory_mask,
                                            const Tensor& tgt_key_padding_mask,
                                            const Tensor& memory_key_padding_mask) {
  const Tensor x = with_residual(options, *norm1, tgt, [&](const Tensor& in) {
    return dropout1->forward(std::get<0>(
        self_attn->forward(in, in, in, tgt_key_padding_mask, /*need_weights=*/false, tgt_mask)));
  });
  const Tensor y = with_residual(options, *norm2, x, [&](const Tensor& in) {
    return dropout2->forward(std::get<0>(multihead_attn->forward(
        in, memory, memory, memory_key_padding_mask, /*need_weights=*/false, memory_mask)));
  });
  return with_residual(options, *norm3, y, [&](const Tensor& in) {
    return dropout3->forward(feed_forward(options, *linear1, *dropout, *linear2, in));
  });
}

TransformerDecoderImpl::TransformerDecoderImpl(const TransformerDecoderOptions& options_)
    : options(options_) {
  layers = register_module(
      "layers", copies_of<TransformerDecoderLayer>(options.decoder_layer(), options.num_layers(),
                                                   "TransformerDecoder"));
  if (!options.norm().is_empty()) norm = register_module("norm", options.norm());
}

Tensor TransformerDecoderImpl::forward(const Tensor& tgt, const Tensor& memory,
                                       const Tensor& tgt_mask, const Tensor& memory_mask,
                                       const Tensor& tgt_key_padding_mask,
                                       const Tensor& memory_key_padding_mask) {
  Tensor x = tgt;
  for (const auto& layer : *layers) {
    x = std::static_pointer_cast<TransformerDecoderLayerImpl>(layer)->forward(
        x, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask);
  }
  return norm.is_empty() ? x : norm->forward(x);
}

}  // namespace accel::nn
