// nn::TransformerEncoderLayer, as LibTorch's and PyTorch's default (post-norm, sequence first):
// self-attention and a feed-forward block, each added to its input and layer-normalized (or,
// with PyTorch's norm_first, each applied to its input layer-normalized and added); and
// nn::TransformerEncoder, a stack of such layers and an optional final norm. The decoder is in
// transformer_decoder.h, the whole encoder-decoder model in transformer_model.h.
#pragma once

#include <functional>

#include "accel/core/arg.h"
#include "accel/nn/module.h"
#include "accel/nn/modules/attention.h"
#include "accel/nn/modules/container.h"
#include "accel/nn/modules/dropout.h"
#include "accel/nn/modules/linear.h"
#include "accel/nn/modules/normalization.h"

namespace accel::nn {

// The options of an encoder or decoder layer (LibTorch's TransformerEncoderLayerOptions and
// TransformerDecoderLayerOptions, which hold the same fields).
struct TransformerLayerOptions {
  TransformerLayerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  ACCEL_ARG(int64_t, d_model);
  ACCEL_ARG(int64_t, nhead);
  ACCEL_ARG(int64_t, dim_feedforward) = 2048;
  ACCEL_ARG(double, dropout) = 0.1;
  // The feed-forward block's activation: relu by default; e.g. [](const Tensor& x) { return
  // F::gelu(x); }.
  ACCEL_ARG(std::function<Tensor(const Tensor&)>, activation);
  ACCEL_ARG(double, layer_norm_eps) = 1e-5;
  // PyTorch's options, which LibTorch lacks: batched inputs [N, sequence, d_model], and the
  // norms before each block (x + block(norm(x))) rather than after (norm(x + block(x))).
  ACCEL_ARG(bool, batch_first) = false;
  ACCEL_ARG(bool, norm_first) = false;
};
using TransformerEncoderLayerOptions = TransformerLayerOptions;
using TransformerDecoderLayerOptions = TransformerLayerOptions;

class TransformerEncoderLayerImpl : public Module {
 public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(const TransformerEncoderLayerOptions& options);

  // src [S, N, d_model] ([N, S, d_model] batch first, or [S, d_model]); src_mask [S, S] or [N *
  // nhead, S, S] and src_key_padding_mask [N, S] as MultiheadAttention's attn_mask and
  // key_padding_mask (true means "ignore"). The one-argument form lets layers stack in a
  // Sequential.
  Tensor forward(const Tensor& src) override { return forward(src, {}, {}); }
  Tensor forward(const Tensor& src, const Tensor& src_mask, const Tensor& src_key_padding_mask);

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
};
ACCEL_MODULE(TransformerEncoderLayer);

struct TransformerEncoderOptions {
  TransformerEncoderOptions(TransformerEncoderLayerOptions encoder_layer, int64_t num_layers)
      : encoder_layer_(std::move(encoder_layer)), num_layers_(num_layers) {}
  ACCEL_ARG(TransformerEncoderLayerOptions, encoder_layer);
  ACCEL_ARG(int64_t, num_layers);
  // Applied to the last layer's output (LibTorch's norm option, as a LayerNorm).
  ACCEL_ARG(LayerNorm, norm) = nullptr;
};

class TransformerEncoderImpl : public Module {
 public:
  // num_layers layers ("layers.0", ...) that start with the same parameters, as PyTorch's and
  // LibTorch's copies of one layer do.
  explicit TransformerEncoderImpl(const TransformerEncoderOptions& options);

  // As TransformerEncoderLayer's forward, through every layer, then the norm.
  Tensor forward(const Tensor& src) override { return forward(src, {}, {}); }
  Tensor forward(const Tensor& src, const Tensor& mask, const Tensor& src_key_padding_mask);

  TransformerEncoderOptions options;
  ModuleList layers = nullptr;
  LayerNorm norm = nullptr;
};
ACCEL_MODULE(TransformerEncoder);

}  // namespace accel::nn
