// ConcatDataset: cumulative sizes locate an index's part; batches are gathered per part,
// concatenated, then put back in the requested order with one index_select.
#include "accel/data/concat_dataset.h"

#include <algorithm>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::data {

ConcatDataset::ConcatDataset(std::vector<DatasetPtr> datasets) : datasets_(std::move(datasets)) {
  int64_t total = 0;
  for (size_t k = 0; k < datasets_.size(); ++k) {
    ACCEL_CHECK(datasets_[k] != nullptr, "ConcatDataset",
                "expected datasets, found a null pointer at position {}", k);
    total += datasets_[k]->size();
    ends_.push_back(total);
  }
}

int64_t ConcatDataset::size() const { return ends_.empty() ? 0 : ends_.back(); }

ConcatDataset::Location ConcatDataset::locate(int64_t index, const char* op) const {
  check_index(op, index, size());
  const size_t part = std::upper_bound(ends_.begin(), ends_.end(), index) - ends_.begin();
  return {part, part == 0 ? index : index - ends_[part - 1]};
}

Example ConcatDataset::get(int64_t index) const {
  const Location where = locate(index, "ConcatDataset.get");
  return datasets_[where.part]->get(where.index);
}

std::optional<Example> ConcatDataset::get_batch(std::span<const int64_t> indices) const {
  std::vector<std::vector<int64_t>> local(datasets_.size());     // per part: its indices
  std::vector<std::vector<int64_t>> position(datasets_.size());  // per part: batch positions
  for (size_t k = 0; k < indices.size(); ++k) {
    const Location where = locate(indices[k], "ConcatDataset.get_batch");
    local[where.part].push_back(where.index);
    position[where.part].push_back(static_cast<int64_t>(k));
  }
  std::vector<Tensor> data, target;
  std::vector<int64_t> row_of_position(indices.size());
  int64_t row = 0;
  for (size_t part = 0; part < datasets_.size(); ++part) {
    if (local[part].empty()) continue;
    std::optional<Example> batch = datasets_[part]->get_batch(local[part]);
    if (!batch) return std::nullopt;
    data.push_back(std::move(batch->data));
    target.push_back(std::move(batch->target));
    for (int64_t k : position[part]) row_of_position[k] = row++;
  }
  const Tensor order = tensor(row_of_position);
  const Tensor all_data = cat(data), all_target = cat(target);
  return Example{all_data.index_select(0, order.to(all_data.device())),
                 all_target.index_select(0, order.to(all_target.device()))};
}

}  // namespace accel::data
