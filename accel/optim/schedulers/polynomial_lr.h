// PolynomialLR: the rates decay from the base rates to zero over total_iters epochs as
// (1 - epoch / total_iters)^power, then stay at zero, with PyTorch's recursive formula.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class PolynomialLR : public LRScheduler {
 public:
  PolynomialLR(OptimizerRef optimizer, int64_t total_iters = 5, double power = 1.0);

 private:
  std::vector<double> get_lr(bool initial) override;
  int64_t total_iters_;
  double power_;
};

}  // namespace accel::optim
