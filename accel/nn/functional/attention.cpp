// scaled_dot_product_attention from matmul, masked_fill, softmax and dropout, so its gradient
// and its CUDA path come from theirs.
#include "accel/nn/functional/attention.h"

#include <cmath>
#include <limits>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/dropout.h"

namespace accel::nn::functional {

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale, Generator* generator) {
  constexpr const char* op = "scaled_dot_product_attention";
  ACCEL_CHECK(query.defined() && key.defined() && value.defined(), op,
              "query, key and value must be defined");
  ACCEL_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2, op,
              "query, key and value need at least 2 dims ([..., length, features]), got {}, {} "
              "and {}",
              query.sizes(), key.sizes(), value.sizes());
  ACCEL_CHECK(
      query.is_floating_point() && key.dtype() == query.dtype() && value.dtype() == query.dtype(),
      op, "query, key and value must share one floating dtype, got {}, {} and {}", query.dtype(),
      key.dtype(), value.dtype());
  const int64_t features = query.size(-1);
  ACCEL_CHECK(key.size(-1) == features && key.size(-2) == value.size(-2), op,
              "key {} must have the query's features ({}) and value {} the key's length",
              key.sizes(), features, value.sizes());
  ACCEL_CHECK(dropout_p >= 0 && dropout_p <= 1, op, "dropout_p must be in [0, 1], got {}",
              dropout_p);
  ACCEL_CHECK(!(is_causal && attn_mask.defined()), op,
              "attn_mask must not be given with is_causal, which makes its own mask");
  const double factor = scale.value_or(1.0 / std::sqrt(static_cast<double>(features)));
  Tensor scores = query.matmul(key.transpose(-2, -1)) * factor;
  Tensor allowed;  // bool, true where a query may attend to a key
  if (is_causal) {
    allowed =
        ones({query.size(-2), key.size(-2)}, TensorOptions(kBool).device(query.device())).tril();
  } else if (attn_mask.defined() && attn_mask.dtype() == kBool) {
    allowed = attn_mask;
  } else if (attn_mask.defined()) {
    ACCEL_CHECK(attn_mask.dtype() == query.dtype(), op,
                "a float attn_mask must have the query's dtype {}, got {}", query.dtype(),
                attn_mask.dtype());
    scores = scores + attn_mask;
  }
  if (allowed.defined()) {
    scores = scores.masked_fill(allowed.logical_not(), -std::numeric_limits<double>::infinity());
  }
  Tensor weights;
  if (is_causal || attn_mask.defined()) {
    // A query with no key to attend to gets zero weights rather than softmax's NaN; its scores
    // are zeroed first so that no NaN reaches the gradient either.
    const Tensor no_key = eq(scores, -std::numeric_limits<double>::infinity()).all(-1, true);
    weights = softmax(scores.masked_fill(no_key, 0), -1).masked_fill(no_key, 0);
  } else {
    weights = softmax(scores, -1);
  }
  if (dropout_p > 0) weights = dropout(weights, dropout_p, true, generator);
  return weights.matmul(value);
}

}  // namespace accel::nn::functional
