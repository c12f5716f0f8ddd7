// SequentialLR: each step advances the scheduler whose phase holds the new epoch, or restarts
// it when the epoch is its milestone; the rates are that scheduler's.
#include "accel/optim/schedulers/sequential_lr.h"

#include <algorithm>

namespace accel::optim {

SequentialLR::SequentialLR(OptimizerRef optimizer,
                           std::vector<std::shared_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : ComposedLRScheduler("SequentialLR", std::move(optimizer), std::move(schedulers)),
      milestones_(std::move(milestones)) {
  ACCEL_CHECK(milestones_.size() + 1 == this->schedulers().size(), name(),
              "expected {} milestones for {} schedulers, got {}", this->schedulers().size() - 1,
              this->schedulers().size(), milestones_.size());
  ACCEL_CHECK(std::is_sorted(milestones_.begin(), milestones_.end()), name(),
              "milestones must be increasing, got {}", milestones_);
  initial_step();
}

std::vector<double> SequentialLR::get_lr(bool initial) {
  const auto idx = static_cast<size_t>(
      std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch()) - milestones_.begin());
  LRScheduler& scheduler = *schedulers()[idx];
  if (initial || (idx > 0 && milestones_[idx - 1] == last_epoch())) {
    scheduler.restart();
  } else {
    scheduler.step();
  }
  return scheduler.get_last_lr();
}

}  // namespace accel::optim
