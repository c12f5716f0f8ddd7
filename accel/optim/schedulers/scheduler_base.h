// SchedulerBase: the base of pytorch-accelerated's schedulers (CosineLrScheduler, WSDLrScheduler),
// stepped once per optimizer update. The rates are a closed-form function of the step index, so
// the step count that every LRScheduler saves (last_epoch) is all a resumed run needs.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

// Construction writes the base rates (each group's initial_lr) into the optimizer, as
// pytorch-accelerated's SchedulerBase. The step index is pytorch-accelerated's `num_updates`:
// the k-th step() (taken after the k-th optimizer update) sets the rates for index k - 1, so
// last_epoch() == num_updates() + 1. Optimizer updates are counted globally: under N processes
// every process steps its scheduler once per (synchronized) update, never N times.
class SchedulerBase : public LRScheduler {
 public:
  // Stateless use, the caller keeping the count: sets the rates for step index `num_updates`
  // (>= 0), which becomes the scheduler's position (step() continues from it).
  void step_update(int64_t num_updates);
  // -1 after construction, k - 1 after k steps.
  int64_t num_updates() const { return last_epoch() - 1; }

 protected:
  SchedulerBase(std::string name, OptimizerRef optimizer);
  // Each group's rate at step index num_updates.
  virtual std::vector<double> get_updated_values(int64_t num_updates) const = 0;
  // The rates written at construction.
  virtual std::vector<double> initial_values() const { return base_lrs(); }

 private:
  std::vector<double> get_lr(bool initial) final;
};

// pytorch-accelerated's StatefulSchedulerBase adds a step counter to SchedulerBase; in accel
// every LRScheduler counts its steps and saves the count, so it is SchedulerBase by the name
// code ported from Python uses.
using StatefulSchedulerBase = SchedulerBase;

}  // namespace accel::optim
