// Collation: how a list of samples becomes one batch, and the per-sample read it follows. The
// default stacks data and target along a new dim 0, as PyTorch's default_collate does for tensors.
#pragma once

#include <functional>
#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

using CollateFn = std::function<Example(std::vector<Example>&&)>;

// dataset.get(i) for each index, in order; an error names the sample that raised it.
std::vector<Example> get_samples(const Dataset& dataset, std::span<const int64_t> indices);

Example default_collate(std::vector<Example>&& samples);

}  // namespace accel::data
