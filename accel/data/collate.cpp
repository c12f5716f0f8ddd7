// get_samples and default_collate: read samples one by one (naming the failing index), then
// stack data and target along dim 0. A target undefined in every sample stays undefined.
#include "accel/data/collate.h"

#include "accel/core/ops.h"

namespace accel::data {

std::vector<Example> get_samples(const Dataset& dataset, std::span<const int64_t> indices) {
  std::vector<Example> samples;
  samples.reserve(indices.size());
  for (int64_t index : indices) {
    try {
      samples.push_back(dataset.get(index));
    } catch (const std::exception& e) {
      fail("Dataset.get", "sample {} failed: {}", index, e.what());
    }
  }
  return samples;
}

Example default_collate(std::vector<Example>&& samples) {
  ACCEL_CHECK(!samples.empty(), "default_collate", "expected at least one sample, found none");
  std::vector<Tensor> data, target;
  data.reserve(samples.size());
  target.reserve(samples.size());
  for (Example& sample : samples) {
    data.push_back(std::move(sample.data));
    if (sample.target.defined()) target.push_back(std::move(sample.target));
  }
  ACCEL_CHECK(target.empty() || target.size() == samples.size(), "default_collate",
              "expected every sample or none to have a target, found {} of {}", target.size(),
              samples.size());
  return {stack(data), target.empty() ? Tensor() : stack(target)};
}

}  // namespace accel::data
