// embedding as index_select over the flattened indices; embedding_bag as index_select, then
// index_add (sum, mean) or scatter_reduce (max) into one row per bag. Those ops supply the
// gradients.
#include "accel/nn/functional/embedding.h"

#include <algorithm>
#include <vector>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

namespace {

void check_table(const Tensor& indices, const Tensor& weight, const char* op) {
  ACCEL_CHECK(indices.dtype() == kInt64 || indices.dtype() == kInt32, op,
              "expected integer indices (int64 or int32), got {}", indices.dtype());
  ACCEL_CHECK(weight.dim() == 2, op,
              "expected weight of shape [num_embeddings, embedding_dim], got {}", weight.sizes());
}

// padding_idx within [-rows, rows), made non-negative.
std::optional<int64_t> table_row(std::optional<int64_t> padding_idx, int64_t rows, const char* op) {
  if (!padding_idx) return padding_idx;
  ACCEL_CHECK(*padding_idx >= -rows && *padding_idx < rows, op,
              "padding_idx must be within [{}, {}), got {}", -rows, rows, *padding_idx);
  return *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
}

std::vector<int64_t> host_values(const Tensor& t) {
  const Tensor c = t.to(kCPU).to(kInt64).contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

// The bag of each entry of the flattened input (-1: in none), and the number of bags.
std::pair<std::vector<int64_t>, int64_t> bags_of(const Tensor& input,
                                                 const EmbeddingBagFuncOptions& o, const char* op) {
  const int64_t length = input.numel();
  std::vector<int64_t> bag(static_cast<size_t>(length));
  if (input.dim() == 2) {
    ACCEL_CHECK(!o.offsets().defined(), op,
                "a 2-D input [B, N] holds B bags of N indices and takes no offsets, got offsets "
                "{}",
                o.offsets().sizes());
    for (int64_t i = 0; i < length; ++i) bag[static_cast<size_t>(i)] = i / input.size(1);
    return {bag, input.size(0)};
  }
  ACCEL_CHECK(input.dim() == 1, op, "expected a 1-D or 2-D input, got {}", input.sizes());
  ACCEL_CHECK(o.offsets().defined() && o.offsets().dim() == 1, op,
              "a 1-D input needs 1-D offsets saying where each bag starts");
  ACCEL_CHECK(o.offsets().dtype() == kInt64 || o.offsets().dtype() == kInt32, op,
              "expected integer offsets (int64 or int32), got {}", o.offsets().dtype());
  std::vector<int64_t> starts = host_values(o.offsets());
  ACCEL_CHECK(!starts.empty() && starts.front() == 0, op,
              "offsets[0] must be 0 (the first bag starts at the input's start), got offsets {}",
              starts);
  for (size_t b = 1; b < starts.size(); ++b) {
    ACCEL_CHECK(starts[b] >= starts[b - 1] && starts[b] <= length, op,
                "offsets must be non-decreasing and at most the input's length {}, got {}", length,
                starts);
  }
  if (!o.include_last_offset()) starts.push_back(length);
  const auto bags = static_cast<int64_t>(starts.size()) - 1;
  std::fill(bag.begin(), bag.end(), -1);
  for (int64_t b = 0; b < bags; ++b) {
    for (int64_t i = starts[static_cast<size_t>(b)]; i < starts[static_cast<size_t>(b) + 1]; ++i) {
      bag[static_cast<size_t>(i)] = b;
    }
  }
  return {bag, bags};
}

}  // namespace

// Rows looked up at padding_idx come from the detached weight, so they keep their values but
// pass no gradient (PyTorch's rule).
Tensor embedding(const Tensor& indices, const Tensor& weight, std::optional<int64_t> padding_idx) {
  constexpr const char* op = "embedding";
  check_table(indices, weight, op);
  padding_idx = table_row(padding_idx, weight.size(0), op);
  DimVector out_sizes(indices.sizes().begin(), indices.sizes().end());
  out_sizes.push_back(weight.size(1));
  Tensor rows = index_select(weight, 0, indices.reshape({-1}));
  if (padding_idx) {
    Tensor is_padding = (indices.reshape({-1, 1}) == *padding_idx);
    rows = where(is_padding, rows.detach(), rows);
  }
  return rows.view(as_ref(out_sizes));
}

Tensor embedding_bag(const Tensor& input, const Tensor& weight, const EmbeddingBagFuncOptions& o) {
  constexpr const char* op = "embedding_bag";
  check_table(input, weight, op);
  const std::optional<int64_t> padding_idx = table_row(o.padding_idx(), weight.size(0), op);
  const Tensor& sample_weights = o.per_sample_weights();
  if (sample_weights.defined()) {
    ACCEL_CHECK(o.mode() == EmbeddingBagMode::Sum, op,
                "per_sample_weights are only supported for mode sum");
    ACCEL_CHECK(sample_weights.sizes() == input.sizes(), op,
                "expected per_sample_weights of the input's shape {}, got {}", input.sizes(),
                sample_weights.sizes());
  }
  ACCEL_CHECK(input.device() == weight.device(), op,
              "expected input and weight on one device, got {} and {}", input.device(),
              weight.device());
  const auto [bag, bags] = bags_of(input, o, op);
  // The entries that count: inside a bag and not padding.
  const std::vector<int64_t> indices = host_values(input);
  std::vector<int64_t> kept, kept_bag;
  std::vector<double> count(static_cast<size_t>(bags), 0.0);
  for (size_t i = 0; i < indices.size(); ++i) {
    if (bag[i] < 0 || (padding_idx && indices[i] == *padding_idx)) continue;
    kept.push_back(static_cast<int64_t>(i));
    kept_bag.push_back(bag[i]);
    count[static_cast<size_t>(bag[i])] += 1;
  }
  const TensorOptions on_device = TensorOptions(kInt64).device(weight.device());
  const Tensor positions = tensor(kept, on_device);
  const Tensor bag_index = tensor(kept_bag, on_device);
  Tensor rows = weight.index_select(0, input.reshape({-1}).index_select(0, positions));
  if (sample_weights.defined()) {
    rows = rows * sample_weights.reshape({-1}).index_select(0, positions).unsqueeze(1);
  }
  const Tensor empty_bags = zeros({bags, weight.size(1)}, weight.options());
  if (o.mode() == EmbeddingBagMode::Max) {
    return empty_bags.scatter_reduce(0, bag_index.unsqueeze(1).expand(rows.sizes()), rows, "amax",
                                     /*include_self=*/false);
  }
  const Tensor sums = empty_bags.index_add(0, bag_index, rows);
  if (o.mode() == EmbeddingBagMode::Sum) return sums;
  for (double& c : count) c = std::max(c, 1.0);  // an empty bag's zeros stay zeros
  return sums / tensor(count, weight.options()).unsqueeze(1);
}

}  // namespace accel::nn::functional
