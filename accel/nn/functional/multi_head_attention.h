// torch.nn.functional.multi_head_attention_forward, the computation behind nn::MultiheadAttention:
// project query, key and value, split the features into heads, attend, join the heads and
// project the result. Inputs are sequence first, as in PyTorch: query [L, N, E], key and value
// [S, N, kdim / vdim], or [L, E] and [S, kdim / vdim] unbatched.
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

struct MultiheadAttentionForwardFuncOptions {
  // LibTorch's order: bias_k and bias_v ([1, 1, E], or undefined) are appended to the projected
  // keys and values; add_zero_attn appends a zero key and value per head after them.
  MultiheadAttentionForwardFuncOptions(int64_t embed_dim_to_check, int64_t num_heads,
                                       Tensor in_proj_weight, Tensor in_proj_bias, Tensor bias_k,
                                       Tensor bias_v, bool add_zero_attn, double dropout_p,
                                       Tensor out_proj_weight, Tensor out_proj_bias)
      : embed_dim_to_check_(embed_dim_to_check),
        num_heads_(num_heads),
        in_proj_weight_(std::move(in_proj_weight)),
        in_proj_bias_(std::move(in_proj_bias)),
        bias_k_(std::move(bias_k)),
        bias_v_(std::move(bias_v)),
        add_zero_attn_(add_zero_attn),
        dropout_p_(dropout_p),
        out_proj_weight_(std::move(out_proj_weight)),
        out_proj_bias_(std::move(out_proj_bias)) {}

  ACCEL_ARG(int64_t, embed_dim_to_check);
  ACCEL_ARG(int64_t, num_heads);
  ACCEL_ARG(Tensor, in_proj_weight);  // [3E, E] (unless use_separate_proj_weight)
  ACCEL_ARG(Tensor, in_proj_bias);    // [3E] or undefined
  ACCEL_ARG(Tensor, bias_k);
  ACCEL_ARG(Tensor, bias_v);
  ACCEL_ARG(bool, add_zero_attn);
  ACCEL_ARG(double, dropout_p);
  ACCEL_ARG(Tensor, out_proj_weight);  // [E, E]
  ACCEL_ARG(Tensor, out_proj_bias);    // [E] or undefined
  ACCEL_ARG(bool, training) = true;    // dropout applies only in training
  // [N, S] (or [S] unbatched): true, or -inf, where a key is padding to be ignored; a float mask
  // is added to the scores.
  ACCEL_ARG(Tensor, key_padding_mask);
  ACCEL_ARG(bool, need_weights) = true;
  // [L, S] or [N * num_heads, L, S]: true, or -inf, where a query may NOT attend to a key (the
  // opposite of scaled_dot_product_attention's bool mask, as in PyTorch); float is added.
  ACCEL_ARG(Tensor, attn_mask);
  // Separate projections [E, E], [E, kdim], [E, vdim] instead of in_proj_weight.
  ACCEL_ARG(bool, use_separate_proj_weight) = false;
  ACCEL_ARG(Tensor, q_proj_weight);
  ACCEL_ARG(Tensor, k_proj_weight);
  ACCEL_ARG(Tensor, v_proj_weight);
  // The returned weights averaged over the heads ([N, L, S]) or per head ([N, heads, L, S]).
  ACCEL_ARG(bool, average_attn_weights) = true;
};

// The attention output [L, N, E] ([L, E] unbatched) and, when need_weights, the attention
// weights (after dropout, as PyTorch returns them), else an undefined tensor. With
// need_weights a query whose keys are all masked gets NaN weights, without them zeros: both as
// PyTorch, which computes the two cases differently.
std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value,
    const MultiheadAttentionForwardFuncOptions& options);

}  // namespace accel::nn::functional
