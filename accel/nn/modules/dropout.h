// nn::Dropout: in training, zeroes each element with probability p and scales the rest by
// 1/(1-p) (so expectations are unchanged); in eval, the identity.
#pragma once

#include "accel/nn/module.h"

namespace accel::nn {

class DropoutImpl : public Module {
 public:
  explicit DropoutImpl(double p = 0.5);
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double p;
};
ACCEL_MODULE(Dropout);

}  // namespace accel::nn
