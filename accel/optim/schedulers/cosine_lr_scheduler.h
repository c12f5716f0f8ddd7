// CosineLrScheduler: pytorch-accelerated's per-update cosine schedule with linear warmup, k-decay
// and cooldown, with the original's warmup defects fixed (see docs/trainer.md, "The original's
// defects, fixed").
#pragma once

#include <optional>

#include "accel/optim/schedulers/scheduler_base.h"

namespace accel::optim {

class CosineLrSchedulerOptions {
 public:
  // Higher values hold the rate high for longer: the cosine runs over progress^k_decay.
  ACCEL_ARG(double, k_decay) = 1.0;
  ACCEL_ARG(double, lr_min) = 1e-6;
  // Each group's minimum as a ratio of its base rate; takes precedence over lr_min.
  ACCEL_ARG(std::optional<double>, min_lr_ratio);
  ACCEL_ARG(int64_t, num_warmup_epochs) = 0;
  ACCEL_ARG(double, warmup_starting_lr) = 1e-6;
  // Each group's warmup start as a ratio of its base rate; takes precedence over
  // warmup_starting_lr.
  ACCEL_ARG(std::optional<double>, warmup_starting_lr_ratio);
  ACCEL_ARG(int64_t, num_cooldown_epochs) = 0;
};

// With T = total_num_epochs x num_update_steps_per_epoch optimizer updates, W and C the warmup
// and cooldown epochs in updates, and n the step index (SchedulerBase), each group's rate is:
//   n < W          start + n * (base - start) / W, start = warmup_starting_lr_ratio x base
//                  exactly (or warmup_starting_lr); construction writes `start`;
//   W <= n < T - C a cosine from base down to min over the T - W - C indices from W, reaching
//                  min exactly at n = T - C - 1: min + (base - min) (1 + cos(pi p)) / 2 with
//                  p = ((n - W) / (T - W - C - 1))^k_decay (p = 1 for a one-index cosine);
//   n >= T - C     min (min_lr_ratio x base, or lr_min), also past the end of training.
// The original ended the cosine W indices early (cutting it short and lengthening the
// cooldown), ramped from the ratio start with the slope of warmup_starting_lr (overshooting
// base), wrote warmup_starting_lr at construction whatever the ratio, and never reached the
// minimum at the last cosine index.
class CosineLrScheduler : public SchedulerBase {
 public:
  CosineLrScheduler(OptimizerRef optimizer, int64_t total_num_epochs,
                    int64_t num_update_steps_per_epoch,
                    CosineLrSchedulerOptions options = CosineLrSchedulerOptions());

 private:
  std::vector<double> get_updated_values(int64_t num_updates) const override;
  std::vector<double> initial_values() const override;
  double rate(double base_lr, int64_t num_updates) const;

  CosineLrSchedulerOptions options_;
  int64_t total_iterations_;
  int64_t warmup_iterations_;
  int64_t cooldown_iterations_;
};

}  // namespace accel::optim
