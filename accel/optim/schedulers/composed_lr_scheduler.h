// ComposedLRScheduler: the base of the schedulers built from other schedulers on the same
// optimizer (SequentialLR, ChainedScheduler): it holds them and saves, checks and loads their
// states with its own.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class ComposedLRScheduler : public LRScheduler {
 public:
  LRSchedulerState state_dict() const override;
  // Installs the state and its schedulers' states: all of them or, on an error, none.
  void load_state_dict(const LRSchedulerState& state) override;
  void check_state(const LRSchedulerState& state) const override;

 protected:
  // Checks that there is at least one scheduler and that each drives `optimizer`.
  ComposedLRScheduler(std::string name, OptimizerRef optimizer,
                      std::vector<std::shared_ptr<LRScheduler>> schedulers);
  const std::vector<std::shared_ptr<LRScheduler>>& schedulers() const { return schedulers_; }

 private:
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
};

}  // namespace accel::optim
