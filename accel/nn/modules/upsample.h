// nn::Upsample: F::interpolate with the options given at construction, as LibTorch's.
#pragma once

#include "accel/nn/functional/interpolate.h"
#include "accel/nn/module.h"

namespace accel::nn {

using UpsampleOptions = functional::InterpolateFuncOptions;

class UpsampleImpl : public Module {
 public:
  explicit UpsampleImpl(UpsampleOptions options = {}) : options(std::move(options)) {}
  Tensor forward(const Tensor& input) override { return functional::interpolate(input, options); }
  std::string extra_repr() const override;

  UpsampleOptions options;
};
ACCEL_MODULE(Upsample);

}  // namespace accel::nn
