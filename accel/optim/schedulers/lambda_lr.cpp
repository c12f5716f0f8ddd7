// LambdaLR: base rate x lr_lambda(last_epoch) per group.
#include "accel/optim/schedulers/lambda_lr.h"

namespace accel::optim {

std::vector<LambdaLR::Lambda> one_lambda_per_group(const OptimizerRef& optimizer,
                                                   LambdaLR::Lambda lr_lambda) {
  const size_t groups = optimizer.shared() ? optimizer.shared()->param_groups().size() : 0;
  return std::vector<LambdaLR::Lambda>(groups, std::move(lr_lambda));
}

LambdaLR::LambdaLR(OptimizerRef optimizer, Lambda lr_lambda)
    : LambdaLR(optimizer, one_lambda_per_group(optimizer, std::move(lr_lambda))) {}

LambdaLR::LambdaLR(OptimizerRef optimizer, std::vector<Lambda> lr_lambdas)
    : LRScheduler("LambdaLR", std::move(optimizer)), lr_lambdas_(std::move(lr_lambdas)) {
  ACCEL_CHECK(lr_lambdas_.size() == base_lrs().size(), name(),
              "got {} lr_lambdas for {} parameter groups", lr_lambdas_.size(), base_lrs().size());
  initial_step();
}

std::vector<double> LambdaLR::get_lr(bool) {
  std::vector<double> lrs = base_lrs();
  for (size_t i = 0; i < lrs.size(); ++i) lrs[i] *= lr_lambdas_[i](last_epoch());
  return lrs;
}

}  // namespace accel::optim
