// embedding as index_select over the flattened indices; index_select supplies the gradient.
#include "accel/nn/functional/embedding.h"

#include "accel/base/error.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

// Rows looked up at padding_idx come from the detached weight, so they keep their values but
// pass no gradient (PyTorch's rule).
Tensor embedding(const Tensor& indices, const Tensor& weight, std::optional<int64_t> padding_idx) {
  constexpr const char* op = "embedding";
  ACCEL_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32, op,
              "expected integer indices (int64 or int32), got {}", indices.dtype());
  ACCEL_CHECK(weight.dim() == 2, op,
              "expected weight of shape [num_embeddings, embedding_dim], got {}", weight.sizes());
  const int64_t rows_in_table = weight.size(0);
  if (padding_idx) {
    ACCEL_CHECK(*padding_idx >= -rows_in_table && *padding_idx < rows_in_table, op,
                "padding_idx must be within [{}, {}), got {}", -rows_in_table, rows_in_table,
                *padding_idx);
    if (*padding_idx < 0) *padding_idx += rows_in_table;
  }
  DimVector out_sizes(indices.sizes().begin(), indices.sizes().end());
  out_sizes.push_back(weight.size(1));
  Tensor rows = index_select(weight, 0, indices.reshape({-1}));
  if (padding_idx) {
    Tensor is_padding = (indices.reshape({-1, 1}) == *padding_idx);
    rows = where(is_padding, rows.detach(), rows);
  }
  return rows.view(as_ref(out_sizes));
}

}  // namespace accel::nn::functional
