// OneCycleLR: the phase table is built once from the options; get_lr interpolates within the
// phase holding the step (cosine or linear) and sets each group's momentum alongside.
#include "accel/optim/schedulers/one_cycle_lr.h"

#include <cmath>
#include <numbers>

namespace accel::optim {

namespace {

// Records the cycle's starting rate (max_lr / div_factor) as each group's base rate.
std::shared_ptr<Optimizer> with_initial_lr(const OptimizerRef& ref, double max_lr,
                                           double div_factor) {
  const std::shared_ptr<Optimizer>& optimizer = ref.shared();
  ACCEL_CHECK(optimizer != nullptr, "OneCycleLR", "the optimizer is null");
  for (OptimizerParamGroup& group : optimizer->param_groups()) {
    group.set_initial_lr(max_lr / div_factor);
  }
  return optimizer;
}

}  // namespace

OneCycleLR::OneCycleLR(OptimizerRef optimizer, double max_lr, int64_t total_steps,
                       OneCycleLROptions options)
    : LRScheduler("OneCycleLR",
                  with_initial_lr(std::move(optimizer), max_lr, options.div_factor())),
      total_steps_(total_steps),
      options_(options) {
  ACCEL_CHECK(total_steps > 0, name(), "total_steps must be positive, got {}", total_steps);
  ACCEL_CHECK(options.pct_start() >= 0 && options.pct_start() <= 1, name(),
              "pct_start must be in [0, 1], got {}", options.pct_start());
  const double initial_lr = max_lr / options.div_factor();
  const double min_lr = initial_lr / options.final_div_factor();
  const double up_end = options.pct_start() * static_cast<double>(total_steps) - 1;
  const double last = static_cast<double>(total_steps - 1);
  const double lo = options.base_momentum(), hi = options.max_momentum();
  if (options.three_phase()) {
    phases_ = {{up_end, initial_lr, max_lr, hi, lo},
               {2 * options.pct_start() * static_cast<double>(total_steps) - 2, max_lr, initial_lr,
                lo, hi},
               {last, initial_lr, min_lr, hi, hi}};
  } else {
    phases_ = {{up_end, initial_lr, max_lr, hi, lo}, {last, max_lr, min_lr, lo, hi}};
  }
  if (options.cycle_momentum()) {
    check_has_momentum();
    set_momentum(hi);
  }
  initial_step();
}

double OneCycleLR::anneal(double start, double end, double pct) const {
  if (options_.anneal_strategy() == OneCycleLROptions::AnnealStrategy::Linear) {
    return (end - start) * pct + start;
  }
  return end + (start - end) / 2.0 * (std::cos(std::numbers::pi * pct) + 1);
}

std::vector<double> OneCycleLR::get_lr(bool) {
  const int64_t step = last_epoch();
  ACCEL_CHECK(step <= total_steps_, name(),
              "stepped {} times but total_steps is {}; create it with more total_steps", step + 1,
              total_steps_);
  // The phase holding the step (the last one takes everything after its predecessor).
  size_t i = 0;
  double start_step = 0.0;
  while (i + 1 < phases_.size() && static_cast<double>(step) > phases_[i].end_step) {
    start_step = phases_[i].end_step;
    ++i;
  }
  const Phase& phase = phases_[i];
  const double pct = (static_cast<double>(step) - start_step) / (phase.end_step - start_step);
  if (options_.cycle_momentum()) {
    set_momentum(anneal(phase.start_momentum, phase.end_momentum, pct));
  }
  return std::vector<double>(optimizer().param_groups().size(),
                             anneal(phase.start_lr, phase.end_lr, pct));
}

}  // namespace accel::optim
