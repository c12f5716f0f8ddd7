// SequentialLR: each step advances the scheduler whose phase holds the new epoch, or restarts
// it when the epoch is its milestone; the rates are that scheduler's.
#include "accel/optim/schedulers/sequential_lr.h"

#include <algorithm>

namespace accel::optim {

SequentialLR::SequentialLR(OptimizerRef optimizer,
                           std::vector<std::shared_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : LRScheduler("SequentialLR", optimizer),
      schedulers_(std::move(schedulers)),
      milestones_(std::move(milestones)) {
  ACCEL_CHECK(!schedulers_.empty(), name(), "expected at least one scheduler");
  ACCEL_CHECK(milestones_.size() + 1 == schedulers_.size(), name(),
              "expected {} milestones for {} schedulers, got {}", schedulers_.size() - 1,
              schedulers_.size(), milestones_.size());
  ACCEL_CHECK(std::is_sorted(milestones_.begin(), milestones_.end()), name(),
              "milestones must be increasing, got {}", milestones_);
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    ACCEL_CHECK(schedulers_[i] && schedulers_[i]->optimizer_.get() == optimizer.shared().get(),
                name(), "scheduler {} does not drive the SequentialLR's optimizer", i);
  }
  initial_step();
}

std::vector<double> SequentialLR::get_lr(bool initial) {
  const auto idx = static_cast<size_t>(
      std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch()) - milestones_.begin());
  LRScheduler& scheduler = *schedulers_[idx];
  if (initial || (idx > 0 && milestones_[idx - 1] == last_epoch())) {
    scheduler.restart();
  } else {
    scheduler.step();
  }
  return scheduler.get_last_lr();
}

LRSchedulerState SequentialLR::state_dict() const {
  LRSchedulerState state = LRScheduler::state_dict();
  for (const auto& scheduler : schedulers_) state.schedulers.push_back(scheduler->state_dict());
  return state;
}

void SequentialLR::check_state(const LRSchedulerState& state) const {
  ACCEL_CHECK(state.schedulers.size() == schedulers_.size(), name(),
              "the state has {} schedulers but this SequentialLR has {}", state.schedulers.size(),
              schedulers_.size());
  LRScheduler::check_state(state);
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    try {
      schedulers_[i]->check_state(state.schedulers[i]);
    } catch (const Error& error) {
      fail(name(), "scheduler {} of the state: {}", i, error.what());
    }
  }
}

void SequentialLR::load_state_dict(const LRSchedulerState& state) {
  LRScheduler::load_state_dict(state);  // checks the children's states too
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    schedulers_[i]->load_state_dict(state.schedulers[i]);
  }
}

}  // namespace accel::optim
