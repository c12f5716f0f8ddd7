// Subset: a view of another dataset through a list of its indices (torch Subset), what
// random_split returns. Batches forward to the parent's fast path with the indices mapped.
#pragma once

#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

class Subset : public Dataset {
 public:
  Subset(DatasetPtr dataset, std::vector<int64_t> indices);
  int64_t size() const override;
  Example get(int64_t index) const override;
  std::optional<Example> get_batch(std::span<const int64_t> indices) const override;
  const DatasetPtr& dataset() const { return dataset_; }
  const std::vector<int64_t>& indices() const { return indices_; }

 private:
  DatasetPtr dataset_;
  std::vector<int64_t> indices_;
};

}  // namespace accel::data
