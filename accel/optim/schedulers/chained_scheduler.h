// ChainedScheduler: steps several schedulers of one optimizer together on every step, each
// acting on the rates the previous one left (recursive schedulers compose multiplicatively),
// as PyTorch's.
#pragma once

#include "accel/optim/schedulers/composed_lr_scheduler.h"

namespace accel::optim {

class ChainedScheduler : public ComposedLRScheduler {
 public:
  // The schedulers must drive one optimizer: `optimizer` when given, else the first one's.
  // Construction steps none of them (each took its initial step when built).
  explicit ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers,
                            OptimizerRef optimizer = nullptr);

 private:
  // `optimizer`, or the first scheduler's when none is given.
  static OptimizerRef chain_optimizer(const std::vector<std::shared_ptr<LRScheduler>>& schedulers,
                                      OptimizerRef optimizer);
  std::vector<double> get_lr(bool initial) override;
};

}  // namespace accel::optim
