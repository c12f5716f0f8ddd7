// ConstantLR: the rates run at factor x base for the first total_iters epochs, then at the base
// rates, with PyTorch's recursive formula (scale by factor at epoch 0, by 1 / factor at
// total_iters).
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class ConstantLR : public LRScheduler {
 public:
  ConstantLR(OptimizerRef optimizer, double factor = 1.0 / 3, int64_t total_iters = 5);

 private:
  std::vector<double> get_lr(bool initial) override;
  double factor_;
  int64_t total_iters_;
};

}  // namespace accel::optim
