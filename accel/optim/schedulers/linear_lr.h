// LinearLR: the rate moves linearly from start_factor x base to end_factor x base over
// total_iters epochs, then stays, with PyTorch's recursive formula.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class LinearLR : public LRScheduler {
 public:
  LinearLR(OptimizerRef optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
           int64_t total_iters = 5);

 private:
  std::vector<double> get_lr(bool initial) override;
  double start_factor_, end_factor_;
  int64_t total_iters_;
};

}  // namespace accel::optim
