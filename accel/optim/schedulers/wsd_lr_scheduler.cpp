// WSDLrScheduler: checks the arguments, lays out the checkpoint periods, and computes each
// group's rate from the step index (warmup, stable or decay) in the original's arithmetic.
#include "accel/optim/schedulers/wsd_lr_scheduler.h"

#include <algorithm>
#include <cmath>

namespace accel::optim {
namespace {

using Decay = WSDLrSchedulerOptions::Decay;

std::vector<int64_t> estimate_checkpoint_steps(int64_t total_steps, int64_t num_checkpoints) {
  if (num_checkpoints == 1) return {total_steps};
  std::vector<int64_t> checkpoints;
  for (int64_t i = 0, step = total_steps / 4; i < num_checkpoints; ++i, step *= 2) {
    checkpoints.push_back(std::min(step, total_steps));
    if (checkpoints.back() == total_steps) break;
  }
  return checkpoints;
}

int64_t decay_steps(int64_t period_length, double decay_phase_ratio) {
  return static_cast<int64_t>(static_cast<double>(period_length) * decay_phase_ratio);
}

}  // namespace

WSDLrScheduler::WSDLrScheduler(OptimizerRef optimizer, int64_t total_steps,
                               WSDLrSchedulerOptions options)
    : SchedulerBase("WSDLrScheduler", std::move(optimizer)),
      num_warmup_steps_(options.num_warmup_steps().value_or(
          static_cast<int64_t>(0.01 * static_cast<double>(total_steps)))),
      options_(std::move(options)) {
  const double ratio = options_.decay_phase_ratio();
  const int64_t checkpoints = options_.num_checkpoints();
  ACCEL_CHECK(total_steps > 0, name(), "expected total_steps > 0, found {}", total_steps);
  ACCEL_CHECK(num_warmup_steps_ >= 0, name(), "expected num_warmup_steps >= 0, found {}",
              num_warmup_steps_);
  ACCEL_CHECK(ratio >= 0 && ratio <= 1, name(), "expected decay_phase_ratio in [0, 1], found {}",
              ratio);
  ACCEL_CHECK(checkpoints > 0, name(), "expected num_checkpoints > 0, found {}", checkpoints);
  ACCEL_CHECK(checkpoints == 1 || ratio <= 1.0 / 3, name(),
              "expected decay_phase_ratio <= 1/3 with {} geometrically spaced checkpoints (decay "
              "phases would overlap), found {}",
              checkpoints, ratio);
  ACCEL_CHECK(checkpoints == 1 || total_steps >= 4, name(),
              "expected total_steps >= 4 with {} checkpoints (the first is at total_steps / 4), "
              "found {}",
              checkpoints, total_steps);
  const bool inverse = options_.decay() == Decay::InverseProportional;
  ACCEL_CHECK(options_.lr_min() > 0 || (!inverse && options_.lr_min() == 0), name(),
              "expected lr_min > 0 ({} decay) or >= 0 (sqrt decay), found {}",
              inverse ? "inverse-proportional" : "sqrt", options_.lr_min());
  const double max_base = *std::max_element(base_lrs().begin(), base_lrs().end());
  ACCEL_CHECK(options_.warmup_starting_lr() <= max_base, name(),
              "expected warmup_starting_lr <= the largest base rate {}, found {}", max_base,
              options_.warmup_starting_lr());
  checkpoint_steps_ = estimate_checkpoint_steps(total_steps, checkpoints);
  int64_t start = 0;
  for (int64_t end : checkpoint_steps_) {
    const int64_t decay = decay_steps(end - start, ratio);
    periods_.push_back({start, end, decay, end - decay});
    start = end;
  }
  initial_step();
}

const WSDLrScheduler::Period& WSDLrScheduler::phase_info(int64_t num_updates) const {
  for (const Period& period : periods_) {
    if (period.period_end >= num_updates) return period;
  }
  return periods_.back();
}

std::vector<double> WSDLrScheduler::get_updated_values(int64_t num_updates) const {
  const auto n = static_cast<double>(num_updates);
  std::vector<double> lrs = base_lrs();
  if (!options_.is_continuation_from_checkpoint() && num_updates < num_warmup_steps_) {
    const double start = options_.warmup_starting_lr();
    for (double& lr : lrs) lr = start + (n / static_cast<double>(num_warmup_steps_)) * (lr - start);
    return lrs;
  }
  // The period holding num_updates; past the last checkpoint the original measures from the
  // first period's start, which lands beyond its decay, at the minimum.
  auto period = std::find_if(periods_.begin(), periods_.end(),
                             [&](const Period& p) { return num_updates < p.period_end; });
  if (period == periods_.end()) period = periods_.begin();
  const int64_t steps_into_period = num_updates - period->period_start;
  const int64_t decay_start = period->pre_decay_step - period->period_start;
  if (steps_into_period < decay_start) return lrs;
  // An empty decay (decay_phase_ratio 0) is reached only past the end: already at the minimum.
  const double t = period->decay_steps > 0
                       ? std::min(static_cast<double>(steps_into_period - decay_start) /
                                      static_cast<double>(period->decay_steps),
                                  1.0)
                       : 1.0;
  const double lr_min = options_.lr_min();
  for (double& lr : lrs) {
    lr = options_.decay() == Decay::Sqrt ? lr * (lr_min + (1 - lr_min) * (1 - std::sqrt(t)))
                                         : lr / (t * (1.0 / lr_min) + (1.0 - t) * 1.0);
  }
  return lrs;
}

void WSDLrScheduler::load_state_dict(const LRSchedulerState& state) {
  SchedulerBase::load_state_dict(state);
  if (options_.is_continuation_from_checkpoint()) restart();
}

}  // namespace accel::optim
