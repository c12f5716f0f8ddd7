// TensorDataset: rows of two tensors, sliced per sample and gathered per batch.
#include "accel/data/tensor_dataset.h"

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::data {

TensorDataset::TensorDataset(Tensor data, Tensor target)
    : data_(std::move(data)), target_(std::move(target)) {
  ACCEL_CHECK(data_.defined() && target_.defined(), "TensorDataset",
              "expected defined data and target tensors");
  ACCEL_CHECK(data_.dim() >= 1 && target_.dim() >= 1 && data_.size(0) == target_.size(0),
              "TensorDataset",
              "expected data and target with the same size along dim 0, found {} and {}",
              data_.sizes(), target_.sizes());
}

int64_t TensorDataset::size() const { return data_.size(0); }

Example TensorDataset::get(int64_t index) const {
  check_index("TensorDataset.get", index, size());
  return {data_.select(0, index), target_.select(0, index)};
}

std::optional<Example> TensorDataset::get_batch(std::span<const int64_t> indices) const {
  for (int64_t index : indices) check_index("TensorDataset.get_batch", index, size());
  // The rows' index goes to each tensor's device (a dataset may live on a GPU).
  const Tensor rows = tensor(std::vector<int64_t>(indices.begin(), indices.end()));
  return Example{data_.index_select(0, rows.to(data_.device())),
                 target_.index_select(0, rows.to(target_.device()))};
}

}  // namespace accel::data
