// The schedulers that multiply the rates by gamma at chosen epochs: every step_size epochs
// (StepLR), at each milestone (MultiStepLR), or every epoch (ExponentialLR), as PyTorch's.
#pragma once

#include <vector>

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class StepLR : public LRScheduler {
 public:
  StepLR(OptimizerRef optimizer, int64_t step_size, double gamma = 0.1);

 private:
  std::vector<double> get_lr(bool initial) override;
  int64_t step_size_;
  double gamma_;
};

class MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(OptimizerRef optimizer, std::vector<int64_t> milestones, double gamma = 0.1);

 private:
  std::vector<double> get_lr(bool initial) override;
  std::vector<int64_t> milestones_;  // a repeated milestone decays once per repetition
  double gamma_;
};

class ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(OptimizerRef optimizer, double gamma);

 private:
  std::vector<double> get_lr(bool initial) override;
  double gamma_;
};

}  // namespace accel::optim
