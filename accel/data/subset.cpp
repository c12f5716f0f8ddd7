// Subset: index mapping into the parent dataset, checked once at construction.
#include "accel/data/subset.h"

namespace accel::data {

Subset::Subset(DatasetPtr dataset, std::vector<int64_t> indices)
    : dataset_(std::move(dataset)), indices_(std::move(indices)) {
  ACCEL_CHECK(dataset_ != nullptr, "Subset", "expected a dataset, found a null pointer");
  for (int64_t index : indices_) check_index("Subset", index, dataset_->size());
}

int64_t Subset::size() const { return static_cast<int64_t>(indices_.size()); }

Example Subset::get(int64_t index) const {
  check_index("Subset.get", index, size());
  return dataset_->get(indices_[index]);
}

std::optional<Example> Subset::get_batch(std::span<const int64_t> indices) const {
  std::vector<int64_t> mapped;
  mapped.reserve(indices.size());
  for (int64_t index : indices) {
    check_index("Subset.get_batch", index, size());
    mapped.push_back(indices_[index]);
  }
  return dataset_->get_batch(mapped);
}

}  // namespace accel::data
