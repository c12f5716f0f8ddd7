// nn::MultiheadAttention, as LibTorch's: packed (or, with other key/value widths, separate)
// in-projections, an out-projection Linear, optional bias_k/bias_v and zero attention, and
// PyTorch's initialization (xavier_uniform_ projections, zero biases). Sequence-first inputs,
// or batch-first with PyTorch's batch_first option; the computation is
// F::multi_head_attention_forward.
#pragma once

#include <optional>
#include <tuple>

#include "accel/core/arg.h"
#include "accel/nn/module.h"
#include "accel/nn/modules/linear.h"

namespace accel::nn {

struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}
  ACCEL_ARG(int64_t, embed_dim);
  ACCEL_ARG(int64_t, num_heads);
  ACCEL_ARG(double, dropout) = 0.0;  // on the attention weights, in training
  ACCEL_ARG(bool, bias) = true;
  ACCEL_ARG(bool, add_bias_kv) = false;
  ACCEL_ARG(bool, add_zero_attn) = false;
  ACCEL_ARG(int64_t, kdim);  // the key's features (embed_dim by default)
  ACCEL_ARG(int64_t, vdim);  // the value's features (embed_dim by default)
  // Batched inputs and output [N, L, E] rather than [L, N, E] (PyTorch's option; LibTorch has
  // none).
  ACCEL_ARG(bool, batch_first) = false;
};

class MultiheadAttentionImpl : public Module {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options);
  void reset_parameters();

  // query [L, N, E], key [S, N, kdim], value [S, N, vdim] (or unbatched without N; batch
  // first, [N, L, E] ...) -> the output [L, N, E] ([N, L, E] batch first) and, when need_weights,
  // the weights [N, L, S] (per head [N, heads, L, S] without averaging). Masks as in
  // F::MultiheadAttentionForwardFuncOptions: true in a bool mask means "ignore".
  using Module::forward;
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {},
                                     bool average_attn_weights = true);
  std::string extra_repr() const override;

  MultiheadAttentionOptions options;
  Tensor in_proj_weight;  // [3E, E], when kdim == vdim == E
  Tensor q_proj_weight;   // [E, E], [E, kdim] and [E, vdim] otherwise
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  Tensor in_proj_bias;  // [3E], with bias
  Tensor bias_k;        // [1, 1, E], with add_bias_kv
  Tensor bias_v;
  Linear out_proj = nullptr;
};
ACCEL_MODULE(MultiheadAttention);

}  // namespace accel::nn
