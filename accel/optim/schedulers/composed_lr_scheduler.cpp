// ComposedLRScheduler: the children's states travel in LRSchedulerState::schedulers, in order;
// every part is checked before any is installed.
#include "accel/optim/schedulers/composed_lr_scheduler.h"

namespace accel::optim {

ComposedLRScheduler::ComposedLRScheduler(std::string name, OptimizerRef optimizer,
                                         std::vector<std::shared_ptr<LRScheduler>> schedulers)
    : LRScheduler(std::move(name), optimizer), schedulers_(std::move(schedulers)) {
  ACCEL_CHECK(!schedulers_.empty(), this->name(), "expected at least one scheduler");
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    ACCEL_CHECK(schedulers_[i] && schedulers_[i]->optimizer_.get() == optimizer.shared().get(),
                this->name(), "scheduler {} does not drive the {}'s optimizer", i, this->name());
  }
}

LRSchedulerState ComposedLRScheduler::state_dict() const {
  LRSchedulerState state = LRScheduler::state_dict();
  for (const auto& scheduler : schedulers_) state.schedulers.push_back(scheduler->state_dict());
  return state;
}

void ComposedLRScheduler::check_state(const LRSchedulerState& state) const {
  ACCEL_CHECK(state.schedulers.size() == schedulers_.size(), name(),
              "the state has {} schedulers but this {} has {}", state.schedulers.size(), name(),
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

void ComposedLRScheduler::load_state_dict(const LRSchedulerState& state) {
  LRScheduler::load_state_dict(state);  // checks the children's states too
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    schedulers_[i]->load_state_dict(state.schedulers[i]);
  }
}

}  // namespace accel::optim
