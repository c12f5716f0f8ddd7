// SchedulerBase: maps LRScheduler's step count onto pytorch-accelerated's step index and lets
// a caller set the index directly.
#include "accel/optim/schedulers/scheduler_base.h"

namespace accel::optim {

SchedulerBase::SchedulerBase(std::string name, OptimizerRef optimizer)
    : LRScheduler(std::move(name), std::move(optimizer)) {}

void SchedulerBase::step_update(int64_t num_updates) {
  ACCEL_CHECK(num_updates >= 0, name(), "step_update: expected num_updates >= 0, found {}",
              num_updates);
  step_to(num_updates + 1);
}

std::vector<double> SchedulerBase::get_lr(bool initial) {
  return initial ? initial_values() : get_updated_values(num_updates());
}

}  // namespace accel::optim
