// nn::Transformer: memory = encoder(src), then decoder(tgt, memory), with the same options for
// every layer, and Xavier-uniform matrices as PyTorch's _reset_parameters gives them.
#include "accel/nn/modules/transformer_model.h"

#include <limits>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/init.h"
#include "accel/nn/modules/transformer_blocks.h"

namespace accel::nn {

TransformerImpl::TransformerImpl(const TransformerOptions& options_) : options(options_) {
  const auto layer = TransformerLayerOptions(options.d_model(), options.nhead())
                         .dim_feedforward(options.dim_feedforward())
                         .dropout(options.dropout())
                         .activation(options.activation())
                         .layer_norm_eps(options.layer_norm_eps())
                         .batch_first(options.batch_first())
                         .norm_first(options.norm_first());
  encoder = register_module(
      "encoder",
      TransformerEncoder(
          TransformerEncoderOptions(layer, options.num_encoder_layers()).norm(norm_of(layer))));
  decoder = register_module(
      "decoder",
      TransformerDecoder(
          TransformerDecoderOptions(layer, options.num_decoder_layers()).norm(norm_of(layer))));
  for (const Tensor& p : parameters()) {
    if (p.dim() > 1) init::xavier_uniform_(p);
  }
}

Tensor TransformerImpl::forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask,
                                const Tensor& tgt_mask, const Tensor& memory_mask,
                                const Tensor& src_key_padding_mask,
                                const Tensor& tgt_key_padding_mask,
                                const Tensor& memory_key_padding_mask) {
  ACCEL_CHECK(src.dim() == tgt.dim() && (src.dim() == 2 || src.dim() == 3), "Transformer",
              "src and tgt must both be [sequence, batch, d_model] or both [sequence, d_model], "
              "got {} and {}",
              src.sizes(), tgt.sizes());
  const int64_t batch_dim = options.batch_first() ? 0 : 1;
  ACCEL_CHECK(src.dim() == 2 || src.size(batch_dim) == tgt.size(batch_dim), "Transformer",
              "the batch number of src and tgt must be equal, got {} and {}", src.sizes(),
              tgt.sizes());
  ACCEL_CHECK(src.size(-1) == options.d_model() && tgt.size(-1) == options.d_model(), "Transformer",
              "the feature number of src and tgt must be equal to d_model {}, got {} and {}",
              options.d_model(), src.sizes(), tgt.sizes());
  const Tensor memory = encoder->forward(src, src_mask, src_key_padding_mask);
  return decoder->forward(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                          memory_key_padding_mask);
}

Tensor TransformerImpl::generate_square_subsequent_mask(int64_t size, TensorOptions options) {
  ACCEL_CHECK(size >= 0, "generate_square_subsequent_mask", "size must be non-negative, got {}",
              size);
  return triu(full({size, size}, -std::numeric_limits<double>::infinity(), options), 1);
}

}  // namespace accel::nn
