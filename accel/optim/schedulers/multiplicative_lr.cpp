// MultiplicativeLR: PyTorch's recursive form, the current rates times lr_lambda(last_epoch) on
// every step after construction.
#include "accel/optim/schedulers/multiplicative_lr.h"

namespace accel::optim {

MultiplicativeLR::MultiplicativeLR(OptimizerRef optimizer, Lambda lr_lambda)
    : MultiplicativeLR(optimizer, one_lambda_per_group(optimizer, std::move(lr_lambda))) {}

MultiplicativeLR::MultiplicativeLR(OptimizerRef optimizer, std::vector<Lambda> lr_lambdas)
    : LRScheduler("MultiplicativeLR", std::move(optimizer)), lr_lambdas_(std::move(lr_lambdas)) {
  ACCEL_CHECK(lr_lambdas_.size() == base_lrs().size(), name(),
              "got {} lr_lambdas for {} parameter groups", lr_lambdas_.size(), base_lrs().size());
  initial_step();
}

std::vector<double> MultiplicativeLR::get_lr(bool initial) {
  std::vector<double> lrs = group_lrs();
  if (initial) return lrs;
  for (size_t i = 0; i < lrs.size(); ++i) lrs[i] *= lr_lambdas_[i](last_epoch());
  return lrs;
}

}  // namespace accel::optim
