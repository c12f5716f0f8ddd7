// torch.nn.functional.scaled_dot_product_attention, written out as PyTorch's reference ("math")
// implementation: softmax(q kᵀ * scale + mask) v, with dropout on the attention weights.
#pragma once

#include <optional>

#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// query [..., L, E], key [..., S, E], value [..., S, Ev] -> [..., L, Ev], the leading dims
// broadcast. attn_mask, broadcast to [..., L, S]: bool (true where a query may attend to a key)
// or of the query's float type (added to the scores). is_causal lets query i attend to keys
// 0..i only, and excludes attn_mask. A query whose keys are all masked gets zero weights (as
// PyTorch 2.5 and later). scale defaults to 1 / sqrt(E). Dropout with probability dropout_p
// applies whenever it is nonzero: pass 0 in evaluation.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0,
                                    bool is_causal = false,
                                    std::optional<double> scale = std::nullopt,
                                    Generator* generator = nullptr);

}  // namespace accel::nn::functional
