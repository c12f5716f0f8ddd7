// Transforms: functions from Example to Example (torchvision.transforms). Normalize and
// Lambda touch only the data tensor; Compose chains transforms. Normalize broadcasts over
// leading dims, so the same object normalizes one [C,H,W] sample or a [B,C,H,W] batch.
#pragma once

#include <functional>
#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

using Transform = std::function<Example(Example)>;

// (data - mean) / std per channel, the channel being dim -3 (a single value applies to
// every element of any shape). The result has the data's floating dtype (float32 for
// integer data).
class Normalize {
 public:
  Normalize(double mean, double std);
  Normalize(std::vector<double> mean, std::vector<double> std);
  Example operator()(Example example) const;

 private:
  std::vector<double> mean_;
  std::vector<double> std_;
};

// Applies `fn` to the data tensor; the target passes through.
class Lambda {
 public:
  explicit Lambda(std::function<Tensor(Tensor)> fn);
  Example operator()(Example example) const;

 private:
  std::function<Tensor(Tensor)> fn_;
};

// Applies the transforms in order.
class Compose {
 public:
  explicit Compose(std::vector<Transform> transforms);
  Example operator()(Example example) const;

 private:
  std::vector<Transform> transforms_;
};

}  // namespace accel::data
