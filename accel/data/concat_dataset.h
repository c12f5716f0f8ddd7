// ConcatDataset: several datasets read as one, in order (torch ConcatDataset). A batch
// spanning several parts takes one batched read per part and reorders the rows.
#pragma once

#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

class ConcatDataset : public Dataset {
 public:
  explicit ConcatDataset(std::vector<DatasetPtr> datasets);
  int64_t size() const override;
  Example get(int64_t index) const override;
  std::optional<Example> get_batch(std::span<const int64_t> indices) const override;
  const std::vector<DatasetPtr>& datasets() const { return datasets_; }

 private:
  struct Location {
    size_t part;
    int64_t index;  // within the part
  };
  Location locate(int64_t index, const char* op) const;

  std::vector<DatasetPtr> datasets_;
  std::vector<int64_t> ends_;  // cumulative sizes: part k holds [ends_[k-1], ends_[k])
};

}  // namespace accel::data
