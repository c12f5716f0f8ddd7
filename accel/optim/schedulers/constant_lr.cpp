// ConstantLR: get_lr scales the current rates at epoch 0 and at total_iters only.
#include "accel/optim/schedulers/constant_lr.h"

namespace accel::optim {

ConstantLR::ConstantLR(OptimizerRef optimizer, double factor, int64_t total_iters)
    : LRScheduler("ConstantLR", std::move(optimizer)), factor_(factor), total_iters_(total_iters) {
  ACCEL_CHECK(factor >= 0 && factor <= 1, name(), "factor must be in [0, 1], got {}", factor);
  initial_step();
}

std::vector<double> ConstantLR::get_lr(bool) {
  std::vector<double> lrs = group_lrs();
  if (last_epoch() == 0) {
    for (double& lr : lrs) lr *= factor_;
  } else if (last_epoch() == total_iters_) {
    // As PyTorch's division by the factor: a zero factor cannot bring the base rates back.
    ACCEL_CHECK(factor_ != 0, name(), "factor 0 cannot restore the base rates at total_iters {}",
                total_iters_);
    for (double& lr : lrs) lr *= 1.0 / factor_;
  }
  return lrs;
}

}  // namespace accel::optim
