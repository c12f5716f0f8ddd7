// LambdaLR: each group's rate is its base rate times a user function of the epoch.
#pragma once

#include <functional>

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class LambdaLR : public LRScheduler {
 public:
  using Lambda = std::function<double(int64_t epoch)>;
  // One function for all groups.
  LambdaLR(OptimizerRef optimizer, Lambda lr_lambda);
  // One function per group.
  LambdaLR(OptimizerRef optimizer, std::vector<Lambda> lr_lambdas);

 private:
  std::vector<double> get_lr(bool initial) override;
  std::vector<Lambda> lr_lambdas_;
};

// The one function repeated for each of the optimizer's parameter groups (none for a null
// optimizer, which the scheduler's constructor then rejects).
std::vector<LambdaLR::Lambda> one_lambda_per_group(const OptimizerRef& optimizer,
                                                   LambdaLR::Lambda lr_lambda);

}  // namespace accel::optim
