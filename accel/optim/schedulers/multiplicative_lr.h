// MultiplicativeLR: each step multiplies every group's current rate by a user function of the
// epoch (one function for all groups or one per group, as LambdaLR takes them).
#pragma once

#include "accel/optim/schedulers/lambda_lr.h"

namespace accel::optim {

class MultiplicativeLR : public LRScheduler {
 public:
  using Lambda = LambdaLR::Lambda;
  // One function for all groups.
  MultiplicativeLR(OptimizerRef optimizer, Lambda lr_lambda);
  // One function per group.
  MultiplicativeLR(OptimizerRef optimizer, std::vector<Lambda> lr_lambdas);

 private:
  std::vector<double> get_lr(bool initial) override;
  std::vector<Lambda> lr_lambdas_;
};

}  // namespace accel::optim
