// nn::MultiheadAttention: its parameters, PyTorch's initialization, and the options handed to
// F::multi_head_attention_forward.
#include "accel/nn/modules/attention.h"

#include "accel/core/factories.h"
#include "accel/nn/functional/multi_head_attention.h"
#include "accel/nn/init.h"

namespace accel::nn {

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions& options_)
    : options(options_) {
  const int64_t e = options.embed_dim();
  ACCEL_CHECK(e > 0 && options.num_heads() > 0 && e % options.num_heads() == 0,
              "MultiheadAttention", "embed_dim {} must be positive and divisible by num_heads {}",
              e, options.num_heads());
  ACCEL_CHECK(options.kdim() > 0 && options.vdim() > 0, "MultiheadAttention",
              "kdim and vdim must be positive, got {} and {}", options.kdim(), options.vdim());
  ACCEL_CHECK(options.dropout() >= 0 && options.dropout() <= 1, "MultiheadAttention",
              "dropout must be in [0, 1], got {}", options.dropout());
  if (options.kdim() == e && options.vdim() == e) {
    in_proj_weight = register_parameter("in_proj_weight", empty({3 * e, e}));
  } else {
    q_proj_weight = register_parameter("q_proj_weight", empty({e, e}));
    k_proj_weight = register_parameter("k_proj_weight", empty({e, options.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", empty({e, options.vdim()}));
  }
  if (options.bias()) in_proj_bias = register_parameter("in_proj_bias", empty({3 * e}));
  out_proj = register_module("out_proj", Linear(LinearOptions(e, e).bias(options.bias())));
  if (options.add_bias_kv()) {
    bias_k = register_parameter("bias_k", empty({1, 1, e}));
    bias_v = register_parameter("bias_v", empty({1, 1, e}));
  }
  reset_parameters();
}

void MultiheadAttentionImpl::reset_parameters() {
  if (in_proj_weight.defined()) {
    init::xavier_uniform_(in_proj_weight);
  } else {
    init::xavier_uniform_(q_proj_weight);
    init::xavier_uniform_(k_proj_weight);
    init::xavier_uniform_(v_proj_weight);
  }
  if (in_proj_bias.defined()) {
    init::zeros_(in_proj_bias);
    init::zeros_(out_proj->bias);
  }
  if (bias_k.defined()) {
    init::xavier_normal_(bias_k);
    init::xavier_normal_(bias_v);
  }
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& key_padding_mask,
    bool need_weights, const Tensor& attn_mask, bool average_attn_weights) {
  auto forward_options =
      functional::MultiheadAttentionForwardFuncOptions(
          options.embed_dim(), options.num_heads(), in_proj_weight, in_proj_bias, bias_k, bias_v,
          options.add_zero_attn(), options.dropout(), out_proj->weight, out_proj->bias)
          .training(is_training())
          .key_padding_mask(key_padding_mask)
          .need_weights(need_weights)
          .attn_mask(attn_mask)
          .average_attn_weights(average_attn_weights);
  if (!in_proj_weight.defined()) {
    forward_options.use_separate_proj_weight(true)
        .q_proj_weight(q_proj_weight)
        .k_proj_weight(k_proj_weight)
        .v_proj_weight(v_proj_weight);
  }
  if (!options.batch_first() || query.dim() != 3) {
    return functional::multi_head_attention_forward(query, key, value, forward_options);
  }
  auto [output, weights] = functional::multi_head_attention_forward(
      query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1), forward_options);
  return {output.transpose(0, 1), weights};
}

std::string MultiheadAttentionImpl::extra_repr() const {
  return fmt::format("embed_dim={}, num_heads={}, dropout={}, bias={}{}", options.embed_dim(),
                     options.num_heads(), options.dropout(), options.bias(),
                     options.batch_first() ? ", batch_first=true" : "");
}

}  // namespace accel::nn
