// CosineAnnealingLR: the rate follows half a cosine from the base rate down to eta_min over
// T_max epochs (and back up after, periodically), with PyTorch's recursive formula.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(OptimizerRef optimizer, int64_t T_max, double eta_min = 0.0);

 private:
  std::vector<double> get_lr(bool initial) override;
  int64_t t_max_;
  double eta_min_;
};

}  // namespace accel::optim
