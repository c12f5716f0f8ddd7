// ReduceLROnPlateau: tracks the best metric and the bad steps since, and reduces every group's
// rate (not below min_lr, and only by more than eps) when patience runs out.
#include "accel/optim/schedulers/reduce_lr_on_plateau.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace accel::optim {

using Mode = ReduceLROnPlateauOptions::Mode;
using ThresholdMode = ReduceLROnPlateauOptions::ThresholdMode;

ReduceLROnPlateau::ReduceLROnPlateau(OptimizerRef optimizer, ReduceLROnPlateauOptions options)
    : optimizer_(optimizer.shared()), options_(options) {
  ACCEL_CHECK(optimizer_ != nullptr, "ReduceLROnPlateau", "the optimizer is null");
  ACCEL_CHECK(options.factor() < 1.0, "ReduceLROnPlateau", "factor must be < 1, got {}",
              options.factor());
  best_ = options.mode() == Mode::Min ? std::numeric_limits<double>::infinity()
                                      : -std::numeric_limits<double>::infinity();
  last_lr_ = group_lrs();
}

std::vector<double> ReduceLROnPlateau::group_lrs() const {
  std::vector<double> lrs;
  for (const OptimizerParamGroup& group : optimizer_->param_groups()) {
    lrs.push_back(group.options().get_lr());
  }
  return lrs;
}

bool ReduceLROnPlateau::is_better(double metric) const {
  const double t = options_.threshold();
  const bool rel = options_.threshold_mode() == ThresholdMode::Rel;
  if (options_.mode() == Mode::Min) return rel ? metric < best_ * (1.0 - t) : metric < best_ - t;
  return rel ? metric > best_ * (t + 1.0) : metric > best_ + t;
}

void ReduceLROnPlateau::step(double metric) {
  ++last_epoch_;
  if (is_better(metric)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    ++num_bad_epochs_;
  }
  if (cooldown_counter_ > 0) {
    --cooldown_counter_;
    num_bad_epochs_ = 0;  // bad steps during the cooldown do not count
  }
  if (num_bad_epochs_ > options_.patience()) {
    for (OptimizerParamGroup& group : optimizer_->param_groups()) {
      const double old_lr = group.options().get_lr();
      const double new_lr = std::max(old_lr * options_.factor(), options_.min_lr());
      if (old_lr - new_lr > options_.eps()) group.options().set_lr(new_lr);
    }
    cooldown_counter_ = options_.cooldown();
    num_bad_epochs_ = 0;
  }
  last_lr_ = group_lrs();
}

LRSchedulerState ReduceLROnPlateau::state_dict() const {
  return {last_epoch_,
          {},
          last_lr_,
          {{"best", best_},
           {"num_bad_epochs", static_cast<double>(num_bad_epochs_)},
           {"cooldown_counter", static_cast<double>(cooldown_counter_)}},
          {}};
}

void ReduceLROnPlateau::load_state_dict(const LRSchedulerState& state) {
  const char* op = "ReduceLROnPlateau";
  const size_t groups = optimizer_->param_groups().size();
  ACCEL_CHECK(state.last_lr.size() == groups, op,
              "the state has {} last rates but the optimizer has {} parameter groups",
              state.last_lr.size(), groups);
  check_loaded_last_epoch(op, state.last_epoch);
  for (const char* key : {"best", "num_bad_epochs", "cooldown_counter"}) {
    ACCEL_CHECK(state.values.count(key), op, "the state has no '{}'", key);
  }
  // The counters are saved as doubles: whole numbers within the step-count bound convert exactly.
  const auto counter = [&](const char* key) {
    const double value = state.values.at(key);
    ACCEL_CHECK(
        value >= 0 && value <= static_cast<double>(kMaxLastEpoch) && value == std::floor(value), op,
        "the state's '{}' must be a whole number in [0, {}], got {}", key, kMaxLastEpoch, value);
    return static_cast<int64_t>(value);
  };
  const int64_t num_bad_epochs = counter("num_bad_epochs");
  const int64_t cooldown_counter = counter("cooldown_counter");
  num_bad_epochs_ = num_bad_epochs;
  cooldown_counter_ = cooldown_counter;
  last_epoch_ = state.last_epoch;
  last_lr_ = state.last_lr;
  best_ = state.values.at("best");
}

}  // namespace accel::optim
