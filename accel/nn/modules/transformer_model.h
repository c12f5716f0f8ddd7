// nn::Transformer, LibTorch's and PyTorch's encoder-decoder model: a TransformerEncoder and a
// TransformerDecoder, each ending in a LayerNorm, the decoder attending to the encoder's output.
#pragma once

#include "accel/nn/modules/transformer_decoder.h"

namespace accel::nn {

struct TransformerOptions {
  TransformerOptions() = default;
  TransformerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  ACCEL_ARG(int64_t, d_model) = 512;
  ACCEL_ARG(int64_t, nhead) = 8;
  ACCEL_ARG(int64_t, num_encoder_layers) = 6;
  ACCEL_ARG(int64_t, num_decoder_layers) = 6;
  ACCEL_ARG(int64_t, dim_feedforward) = 2048;
  ACCEL_ARG(double, dropout) = 0.1;
  // The layers' feed-forward activation (relu when unset).
  ACCEL_ARG(std::function<Tensor(const Tensor&)>, activation);
  ACCEL_ARG(double, layer_norm_eps) = 1e-5;
  // PyTorch's options for every layer (TransformerLayerOptions).
  ACCEL_ARG(bool, batch_first) = false;
  ACCEL_ARG(bool, norm_first) = false;
};

class TransformerImpl : public Module {
 public:
  // Every parameter with more than one dim starts Xavier-uniform, as in PyTorch.
  explicit TransformerImpl(const TransformerOptions& options = {});

  // src [S, N, d_model] and tgt [T, N, d_model] (batch first [N, S, d_model] and
  // [N, T, d_model]; or unbatched without N) -> [T, N, d_model] ([N, T, d_model]).
  // Masks as TransformerEncoderLayer's (src_mask [S, S]) and TransformerDecoderLayer's
  // (tgt_mask [T, T], memory_mask [T, S], key padding masks [N, S] and [N, T]).
  using Module::forward;
  Tensor forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask = {},
                 const Tensor& tgt_mask = {}, const Tensor& memory_mask = {},
                 const Tensor& src_key_padding_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});

  // A [size, size] float mask for tgt_mask: -inf above the diagonal (a position attends to
  // itself and the positions before it), 0 elsewhere. float32 on the CPU unless `options` say
  // otherwise; a float mask must have the attention's dtype.
  static Tensor generate_square_subsequent_mask(int64_t size, TensorOptions options = {});

  TransformerOptions options;
  TransformerEncoder encoder = nullptr;
  TransformerDecoder decoder = nullptr;
};
ACCEL_MODULE(Transformer);

}  // namespace accel::nn
