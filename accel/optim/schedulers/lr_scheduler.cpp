// The scheduler stepping shared by every epoch-indexed LR scheduler, and its state round trip.
#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

void check_loaded_last_epoch(std::string_view op, int64_t last_epoch) {
  ACCEL_CHECK(last_epoch >= -1 && last_epoch <= kMaxLastEpoch, op,
              "the state's 'last_epoch' must be in [-1, {}], got {}", kMaxLastEpoch, last_epoch);
}

LRScheduler::LRScheduler(std::string name, OptimizerRef optimizer)
    : name_(std::move(name)), optimizer_(optimizer.shared()) {
  ACCEL_CHECK(optimizer_ != nullptr, name_, "the optimizer is null");
  for (OptimizerParamGroup& group : optimizer_->param_groups()) {
    if (!group.initial_lr()) group.set_initial_lr(group.options().get_lr());
    base_lrs_.push_back(*group.initial_lr());
  }
}

void LRScheduler::initial_step() { update_lr(true); }

void LRScheduler::step() { update_lr(false); }

void LRScheduler::step_to(int64_t last_epoch) {
  last_epoch_ = last_epoch - 1;
  update_lr(false);
}

void LRScheduler::restart() {
  std::vector<OptimizerParamGroup>& groups = optimizer_->param_groups();
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(base_lrs_[i]);
  last_epoch_ = -1;
  update_lr(true);
}

void LRScheduler::update_lr(bool initial) {
  std::vector<OptimizerParamGroup>& groups = optimizer_->param_groups();
  ACCEL_CHECK(groups.size() == base_lrs_.size(), name_,
              "the optimizer has {} parameter groups but had {} when the scheduler was built",
              groups.size(), base_lrs_.size());
  ++last_epoch_;
  const std::vector<double> lrs = get_lr(initial);
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(lrs[i]);
  last_lr_ = group_lrs();
}

void LRScheduler::check_has_momentum() const {
  for (const OptimizerParamGroup& group : optimizer_->param_groups()) {
    ACCEL_CHECK(group.options().get_momentum().has_value(), name_,
                "cycle_momentum needs an optimizer with a momentum or betas; {} has neither "
                "(pass cycle_momentum(false))",
                optimizer_->name());
  }
}

void LRScheduler::set_momentum(double momentum) {
  for (OptimizerParamGroup& group : optimizer_->param_groups()) {
    group.options().set_momentum(momentum);
  }
}

std::vector<double> LRScheduler::group_lrs() const {
  std::vector<double> lrs;
  for (const OptimizerParamGroup& group : optimizer_->param_groups()) {
    lrs.push_back(group.options().get_lr());
  }
  return lrs;
}

LRSchedulerState LRScheduler::state_dict() const {
  return {last_epoch_, base_lrs_, last_lr_, {}, {}};
}

void LRScheduler::check_state(const LRSchedulerState& state) const {
  const size_t groups = optimizer_->param_groups().size();
  ACCEL_CHECK(state.base_lrs.size() == groups && state.last_lr.size() == groups, name_,
              "the state has {} base rates and {} last rates but the optimizer has {} parameter "
              "groups",
              state.base_lrs.size(), state.last_lr.size(), groups);
  check_loaded_last_epoch(name_, state.last_epoch);
}

void LRScheduler::load_state_dict(const LRSchedulerState& state) {
  check_state(state);  // a subclass's, which checks what its own load adds
  last_epoch_ = state.last_epoch;
  base_lrs_ = state.base_lrs;
  last_lr_ = state.last_lr;
}

}  // namespace accel::optim
