// TensorDataset: samples are the rows (dim 0) of a data tensor and a target tensor, as
// torch.utils.data.TensorDataset. A batch is one index_select per tensor.
#pragma once

#include "accel/data/dataset.h"

namespace accel::data {

class TensorDataset : public Dataset {
 public:
  TensorDataset(Tensor data, Tensor target);
  int64_t size() const override;
  Example get(int64_t index) const override;
  std::optional<Example> get_batch(std::span<const int64_t> indices) const override;
  const Tensor& data() const { return data_; }
  const Tensor& target() const { return target_; }

 private:
  Tensor data_;
  Tensor target_;
};

}  // namespace accel::data
