// nn::TransformerDecoderLayer, as LibTorch's and PyTorch's default (post-norm, sequence first;
// PyTorch's norm_first and batch_first are options):
// self-attention over the target, attention from the target to the encoder's output (the
// memory) and a feed-forward block, each added to its input and layer-normalized; and
// nn::TransformerDecoder, a stack of such layers and an optional final norm.
#pragma once

#include "accel/nn/modules/transformer.h"

namespace accel::nn {

class TransformerDecoderLayerImpl : public Module {
 public:
  TransformerDecoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerDecoderLayerImpl(TransformerDecoderLayerOptions(d_model, nhead)) {}
  explicit TransformerDecoderLayerImpl(const TransformerDecoderLayerOptions& options);

  // tgt [T, N, d_model] and memory [S, N, d_model] ([N, T, d_model] and [N, S, d_model] batch
  // first, or unbatched without N). tgt_mask [T, T]
  // and memory_mask [T, S] (or per head, [N * nhead, ...]) as MultiheadAttention's attn_mask;
  // the key padding masks [N, T] and [N, S] (true means "ignore").
  using Module::forward;
  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});

  TransformerDecoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  MultiheadAttention multihead_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  LayerNorm norm3 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
  Dropout dropout3 = nullptr;
};
ACCEL_MODULE(TransformerDecoderLayer);

struct TransformerDecoderOptions {
  TransformerDecoderOptions(TransformerDecoderLayerOptions decoder_layer, int64_t num_layers)
      : decoder_layer_(std::move(decoder_layer)), num_layers_(num_layers) {}
  ACCEL_ARG(TransformerDecoderLayerOptions, decoder_layer);
  ACCEL_ARG(int64_t, num_layers);
  // Applied to the last layer's output (LibTorch's norm option, as a LayerNorm).
  ACCEL_ARG(LayerNorm, norm) = nullptr;
};

class TransformerDecoderImpl : public Module {
 public:
  // num_layers layers ("layers.0", ...) that start with the same parameters, as PyTorch's and
  // LibTorch's copies of one layer do.
  explicit TransformerDecoderImpl(const TransformerDecoderOptions& options);

  // As TransformerDecoderLayer's forward, through every layer (each attending to the same
  // memory), then the norm.
  using Module::forward;
  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});

  TransformerDecoderOptions options;
  ModuleList layers = nullptr;
  LayerNorm norm = nullptr;
};
ACCEL_MODULE(TransformerDecoder);

}  // namespace accel::nn
