// CosineLrScheduler: checks the arguments, then computes each group's rate from the step index
// by phase (warmup, cosine, cooldown); the arithmetic follows the original's order of operations.
#include "accel/optim/schedulers/cosine_lr_scheduler.h"

#include <cmath>
#include <numbers>

namespace accel::optim {

CosineLrScheduler::CosineLrScheduler(OptimizerRef optimizer, int64_t total_num_epochs,
                                     int64_t num_update_steps_per_epoch,
                                     CosineLrSchedulerOptions options)
    : SchedulerBase("CosineLrScheduler", std::move(optimizer)),
      options_(std::move(options)),
      total_iterations_(total_num_epochs * num_update_steps_per_epoch),
      warmup_iterations_(options_.num_warmup_epochs() * num_update_steps_per_epoch),
      cooldown_iterations_(options_.num_cooldown_epochs() * num_update_steps_per_epoch) {
  ACCEL_CHECK(total_num_epochs > 0, name(), "expected total_num_epochs > 0, found {}",
              total_num_epochs);
  ACCEL_CHECK(num_update_steps_per_epoch > 0, name(),
              "expected num_update_steps_per_epoch > 0, found {}", num_update_steps_per_epoch);
  ACCEL_CHECK(options_.num_warmup_epochs() >= 0 && options_.num_cooldown_epochs() >= 0, name(),
              "expected num_warmup_epochs >= 0 and num_cooldown_epochs >= 0, found {} and {}",
              options_.num_warmup_epochs(), options_.num_cooldown_epochs());
  ACCEL_CHECK(options_.num_warmup_epochs() + options_.num_cooldown_epochs() < total_num_epochs,
              name(),
              "expected num_warmup_epochs + num_cooldown_epochs < total_num_epochs (at least one "
              "epoch of cosine), found {} + {} with total_num_epochs {}",
              options_.num_warmup_epochs(), options_.num_cooldown_epochs(), total_num_epochs);
  ACCEL_CHECK(options_.k_decay() > 0, name(), "expected k_decay > 0, found {}", options_.k_decay());
  ACCEL_CHECK(options_.lr_min() >= 0 && options_.min_lr_ratio().value_or(0) >= 0, name(),
              "expected lr_min >= 0 and min_lr_ratio >= 0, found {} and {}", options_.lr_min(),
              options_.min_lr_ratio().value_or(0));
  ACCEL_CHECK(
      options_.warmup_starting_lr() >= 0 && options_.warmup_starting_lr_ratio().value_or(0) >= 0,
      name(),
      "expected warmup_starting_lr >= 0 and warmup_starting_lr_ratio >= 0, "
      "found {} and {}",
      options_.warmup_starting_lr(), options_.warmup_starting_lr_ratio().value_or(0));
  initial_step();
}

std::vector<double> CosineLrScheduler::initial_values() const {
  return warmup_iterations_ > 0 ? get_updated_values(0) : SchedulerBase::initial_values();
}

std::vector<double> CosineLrScheduler::get_updated_values(int64_t num_updates) const {
  std::vector<double> lrs;
  for (double base_lr : base_lrs()) lrs.push_back(rate(base_lr, num_updates));
  return lrs;
}

double CosineLrScheduler::rate(double base_lr, int64_t num_updates) const {
  const auto n = static_cast<double>(num_updates);
  if (num_updates < warmup_iterations_) {
    const double start = options_.warmup_starting_lr_ratio()
                             ? *options_.warmup_starting_lr_ratio() * base_lr
                             : options_.warmup_starting_lr();
    return start + n * ((base_lr - start) / static_cast<double>(warmup_iterations_));
  }
  const double lr_min =
      options_.min_lr_ratio() ? *options_.min_lr_ratio() * base_lr : options_.lr_min();
  if (num_updates >= total_iterations_ - cooldown_iterations_) return lr_min;
  const int64_t last = total_iterations_ - warmup_iterations_ - cooldown_iterations_ - 1;
  const double k = options_.k_decay();
  const double angle = last > 0 ? std::numbers::pi *
                                      std::pow(n - static_cast<double>(warmup_iterations_), k) /
                                      std::pow(static_cast<double>(last), k)
                                : std::numbers::pi;
  return lr_min + 0.5 * (base_lr - lr_min) * (1 + std::cos(angle));
}

}  // namespace accel::optim
