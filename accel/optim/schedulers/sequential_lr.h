// SequentialLR: runs a list of schedulers one after another, switching at the given
// milestones (epochs); each scheduler restarts from the base rates when its turn comes,
// as PyTorch's.
#pragma once

#include "accel/optim/schedulers/composed_lr_scheduler.h"

namespace accel::optim {

class SequentialLR : public ComposedLRScheduler {
 public:
  // The schedulers must drive `optimizer`; milestones: one fewer than schedulers, increasing.
  SequentialLR(OptimizerRef optimizer, std::vector<std::shared_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones);

 private:
  std::vector<double> get_lr(bool initial) override;

  std::vector<int64_t> milestones_;
};

}  // namespace accel::optim
