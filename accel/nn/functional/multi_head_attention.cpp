// multi_head_attention_forward, step for step as PyTorch's: shape checks, bool masks turned
// into -inf, in-projection, bias_k/bias_v and zero attention appended, heads split into the
// batch, the key-padding mask merged into the attention mask, then either explicit attention
// (when the weights are wanted) or scaled_dot_product_attention, and the out-projection.
#include "accel/nn/functional/multi_head_attention.h"

#include <cmath>
#include <limits>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/attention.h"
#include "accel/nn/functional/dropout.h"
#include "accel/nn/functional/linear.h"
#include "accel/nn/functional/pad.h"

namespace accel::nn::functional {

namespace {

constexpr const char* kOp = "multi_head_attention_forward";

// A bool mask as a float mask of the query's dtype: -inf where true, 0 elsewhere.
Tensor as_float_mask(const Tensor& mask, ScalarType dtype, const char* name) {
  if (!mask.defined()) return mask;
  if (mask.dtype() == kBool) {
    return zeros(mask.sizes(), TensorOptions(dtype).device(mask.device()))
        .masked_fill(mask, -std::numeric_limits<double>::infinity());
  }
  ACCEL_CHECK(mask.dtype() == dtype, kOp, "{} must be bool or of the query's dtype {}, got {}",
              name, dtype, mask.dtype());
  return mask;
}

// PyTorch's batched ([L, N, E]) or unbatched ([L, E]) rule for all inputs at once; true when
// batched.
bool check_shapes(const Tensor& query, const Tensor& key, const Tensor& value,
                  const Tensor& key_padding_mask, const Tensor& attn_mask, int64_t num_heads) {
  const int64_t d = query.dim();
  ACCEL_CHECK(d == 2 || d == 3, kOp,
              "query should be unbatched 2-D or batched 3-D, got {}-D query {}", d, query.sizes());
  ACCEL_CHECK(key.dim() == d && value.dim() == d, kOp,
              "for a {}-D query, key and value must be {}-D too, got key {} and value {}", d, d,
              key.sizes(), value.sizes());
  ACCEL_CHECK(!key_padding_mask.defined() || key_padding_mask.dim() == d - 1, kOp,
              "for a {}-D query, key_padding_mask must be {}-D, got {}", d, d - 1,
              key_padding_mask.sizes());
  if (attn_mask.defined()) {
    ACCEL_CHECK(attn_mask.dim() == 2 || attn_mask.dim() == 3, kOp,
                "attn_mask must be 2-D or 3-D, got {}", attn_mask.sizes());
    if (d == 2 && attn_mask.dim() == 3) {
      const DimVector expected = {num_heads, query.size(0), key.size(0)};
      ACCEL_CHECK(attn_mask.sizes() == IntArrayRef(expected), kOp,
                  "an unbatched 3-D attn_mask must be {}, got {}", expected, attn_mask.sizes());
    }
  }
  return d == 3;
}

// The projections of query, key and value ([len, N, E] each).
std::tuple<Tensor, Tensor, Tensor> project(const Tensor& query, const Tensor& key,
                                           const Tensor& value,
                                           const MultiheadAttentionForwardFuncOptions& o) {
  Tensor b_q, b_k, b_v;
  if (o.in_proj_bias().defined()) {
    const std::vector<Tensor> b = o.in_proj_bias().chunk(3);
    b_q = b[0], b_k = b[1], b_v = b[2];
  }
  if (o.use_separate_proj_weight()) {
    ACCEL_CHECK(
        o.q_proj_weight().defined() && o.k_proj_weight().defined() && o.v_proj_weight().defined(),
        kOp, "use_separate_proj_weight needs q_proj_weight, k_proj_weight and v_proj_weight");
    return {linear(query, o.q_proj_weight(), b_q), linear(key, o.k_proj_weight(), b_k),
            linear(value, o.v_proj_weight(), b_v)};
  }
  const int64_t e = query.size(-1);
  ACCEL_CHECK(o.in_proj_weight().defined() && o.in_proj_weight().dim() == 2 &&
                  o.in_proj_weight().size(0) == 3 * e && o.in_proj_weight().size(1) == e,
              kOp, "in_proj_weight must be [{}, {}] for embed_dim {}, got {}", 3 * e, e, e,
              o.in_proj_weight().defined() ? o.in_proj_weight().sizes() : IntArrayRef());
  ACCEL_CHECK(key.sizes() == value.sizes() && key.size(-1) == e, kOp,
              "with packed projections, key {} and value {} must have one shape with embed_dim "
              "({}) features",
              key.sizes(), value.sizes(), e);
  const std::vector<Tensor> w = o.in_proj_weight().chunk(3);
  return {linear(query, w[0], b_q), linear(key, w[1], b_k), linear(value, w[2], b_v)};
}

}  // namespace

std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query_in, const Tensor& key_in, const Tensor& value_in,
    const MultiheadAttentionForwardFuncOptions& o) {
  ACCEL_CHECK(query_in.defined() && key_in.defined() && value_in.defined(), kOp,
              "query, key and value must be defined");
  const int64_t heads = o.num_heads();
  const bool batched =
      check_shapes(query_in, key_in, value_in, o.key_padding_mask(), o.attn_mask(), heads);
  const Tensor query = batched ? query_in : query_in.unsqueeze(1);
  const Tensor key = batched ? key_in : key_in.unsqueeze(1);
  const Tensor value = batched ? value_in : value_in.unsqueeze(1);
  const ScalarType dtype = query.dtype();
  Tensor padding = as_float_mask(o.key_padding_mask(), dtype, "key_padding_mask");
  if (padding.defined() && !batched) padding = padding.unsqueeze(0);
  Tensor mask = as_float_mask(o.attn_mask(), dtype, "attn_mask");

  const int64_t target_len = query.size(0), batch = query.size(1), embed_dim = query.size(2);
  ACCEL_CHECK(embed_dim == o.embed_dim_to_check(), kOp,
              "the query has {} features, expected embed_dim {}", embed_dim,
              o.embed_dim_to_check());
  ACCEL_CHECK(heads > 0 && embed_dim % heads == 0, kOp,
              "embed_dim {} must be divisible by num_heads {}", embed_dim, heads);
  ACCEL_CHECK(key.size(0) == value.size(0) && key.size(1) == batch && value.size(1) == batch, kOp,
              "key {} and value {} must match each other's length and the query's batch {}",
              key.sizes(), value.sizes(), batch);
  const int64_t head_dim = embed_dim / heads;
  auto [q, k, v] = project(query, key, value, o);

  int64_t source_len = key.size(0);
  if (mask.defined()) {
    const DimVector expected = mask.dim() == 2 ? DimVector{target_len, source_len}
                                               : DimVector{batch * heads, target_len, source_len};
    ACCEL_CHECK(mask.sizes() == IntArrayRef(expected), kOp, "attn_mask must be {}, got {}",
                expected, mask.sizes());
    if (mask.dim() == 2) mask = mask.unsqueeze(0);
  }
  auto append_key_position = [&] {
    if (mask.defined()) mask = pad(mask, {0, 1});
    if (padding.defined()) padding = pad(padding, {0, 1});
  };
  ACCEL_CHECK(o.bias_k().defined() == o.bias_v().defined(), kOp,
              "bias_k and bias_v must be given together");
  if (o.bias_k().defined()) {
    k = cat({k, o.bias_k().repeat({1, batch, 1})});
    v = cat({v, o.bias_v().repeat({1, batch, 1})});
    append_key_position();
  }
  // Heads into the batch: [len, N, E] -> [N * heads, len, head_dim].
  auto split_heads = [&](const Tensor& t) {
    return t.reshape({t.size(0), batch * heads, head_dim}).transpose(0, 1);
  };
  q = split_heads(q), k = split_heads(k), v = split_heads(v);
  if (o.add_zero_attn()) {
    k = cat({k, zeros({batch * heads, 1, head_dim}, k.options())}, 1);
    v = cat({v, zeros({batch * heads, 1, head_dim}, v.options())}, 1);
    append_key_position();
  }
  source_len = k.size(1);
  if (padding.defined()) {
    const DimVector expected = {batch, source_len};
    ACCEL_CHECK(padding.sizes() == IntArrayRef(expected), kOp,
                "key_padding_mask must be {} (batch, key length), got {}", expected,
                padding.sizes());
    padding = padding.view({batch, 1, 1, source_len})
                  .expand({batch, heads, 1, source_len})
                  .reshape({batch * heads, 1, source_len});
    mask = mask.defined() ? mask + padding : padding;
  }
  const double dropout_p = o.training() ? o.dropout_p() : 0.0;

  auto join_heads = [&](const Tensor& attended) {  // [N * heads, L, hd] -> [L, N, E]
    const Tensor joined = attended.transpose(0, 1).reshape({target_len * batch, embed_dim});
    const Tensor out =
        linear(joined, o.out_proj_weight(), o.out_proj_bias()).view({target_len, batch, -1});
    return batched ? out : out.squeeze(1);
  };
  if (o.need_weights()) {
    const Tensor q_scaled = q * std::sqrt(1.0 / static_cast<double>(head_dim));
    Tensor scores = bmm(q_scaled, k.transpose(-2, -1));
    if (mask.defined()) scores = mask + scores;
    Tensor weights = softmax(scores, -1);
    if (dropout_p > 0) weights = dropout(weights, dropout_p);
    const Tensor out = join_heads(bmm(weights, v));
    weights = weights.view({batch, heads, target_len, source_len});
    if (o.average_attn_weights()) weights = weights.mean({1});
    return {out, batched ? weights : weights.squeeze(0)};
  }
  const Tensor attended =
      scaled_dot_product_attention(q, k, v, mask, dropout_p, false, std::nullopt);
  return {join_heads(attended), Tensor()};
}

}  // namespace accel::nn::functional
