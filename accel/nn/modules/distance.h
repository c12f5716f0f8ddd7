// CosineSimilarity and PairwiseDistance: modules of two inputs over the functional forms in
// functional/distance.h, holding the same options.
#pragma once

#include "accel/nn/functional/distance.h"
#include "accel/nn/module.h"

namespace accel::nn {

using CosineSimilarityOptions = functional::CosineSimilarityFuncOptions;
using PairwiseDistanceOptions = functional::PairwiseDistanceFuncOptions;

class CosineSimilarityImpl : public Module {
 public:
  explicit CosineSimilarityImpl(CosineSimilarityOptions options = {}) : options(options) {}
  using Module::forward;
  Tensor forward(const Tensor& x1, const Tensor& x2);
  std::string extra_repr() const override;
  CosineSimilarityOptions options;
};
ACCEL_MODULE(CosineSimilarity);

class PairwiseDistanceImpl : public Module {
 public:
  explicit PairwiseDistanceImpl(PairwiseDistanceOptions options = {}) : options(options) {}
  using Module::forward;
  Tensor forward(const Tensor& x1, const Tensor& x2);
  std::string extra_repr() const override;
  PairwiseDistanceOptions options;
};
ACCEL_MODULE(PairwiseDistance);

}  // namespace accel::nn
