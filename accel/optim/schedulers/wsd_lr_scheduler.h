// WSDLrScheduler: pytorch-accelerated's warmup-stable-decay schedule (arXiv 2410.05192) with
// decays before geometrically spaced checkpoints and continuation runs; unlike the original, its
// state carries the step count, so a resumed run does not warm up again (a defect of the original).
#pragma once

#include <optional>

#include "accel/optim/schedulers/scheduler_base.h"

namespace accel::optim {

class WSDLrSchedulerOptions {
 public:
  // Sqrt: base x (lr_min + (1 - lr_min)(1 - sqrt(t))) (the original's use_inverse_sqrt_decay);
  // InverseProportional: base / (t / lr_min + 1 - t), the paper's; t in [0, 1] through a decay.
  enum class Decay { Sqrt, InverseProportional };
  // nullopt: 1% of total_steps, rounded down (the original's default for the Trainer).
  ACCEL_ARG(std::optional<int64_t>, num_warmup_steps) = 0;
  // The fraction of each checkpoint period spent decaying, at its end.
  ACCEL_ARG(double, decay_phase_ratio) = 0.1;
  // The rate a decay ends at, as a fraction of each group's base rate.
  ACCEL_ARG(double, lr_min) = 1e-6;
  ACCEL_ARG(double, warmup_starting_lr) = 1e-6;
  ACCEL_ARG(Decay, decay) = Decay::Sqrt;
  ACCEL_ARG(int64_t, num_checkpoints) = 1;
  // A run continuing from a checkpoint: no warmup, and load_state_dict takes the saved base
  // rates but starts a fresh stable phase over this run's total_steps.
  ACCEL_ARG(bool, is_continuation_from_checkpoint) = false;
};

// total_steps counts optimizer updates (num_epochs x num_update_steps_per_epoch, globally).
// Construction writes the base rates; at step index n (SchedulerBase) the rate is, per group:
//   n < num_warmup_steps  linear from warmup_starting_lr to base (skipped in a continuation);
//   then, within the checkpoint period holding n, base until the last
//   floor(length x decay_phase_ratio) indices of the period, which decay to lr_min x base.
// Checkpoints: [total_steps] for one; else total_steps / 4 doubling, capped at total_steps and
// stopping there (so 2 checkpoints over 100 steps are [25, 50], as in the original). Past the
// last checkpoint the rate stays at lr_min x base.
class WSDLrScheduler : public SchedulerBase {
 public:
  // One checkpoint period; its decay covers indices [pre_decay_step, period_end).
  struct Period {
    int64_t period_start, period_end, decay_steps, pre_decay_step;
  };

  WSDLrScheduler(OptimizerRef optimizer, int64_t total_steps,
                 WSDLrSchedulerOptions options = WSDLrSchedulerOptions());

  const std::vector<int64_t>& checkpoint_steps() const { return checkpoint_steps_; }
  // The first period ending at or after `num_updates`, else the last one (the original's
  // get_phase_info, which WSDCheckpointCallback uses to save pre-decay checkpoints).
  const Period& phase_info(int64_t num_updates) const;

  void load_state_dict(const LRSchedulerState& state) override;

 private:
  std::vector<double> get_updated_values(int64_t num_updates) const override;

  int64_t num_warmup_steps_;
  WSDLrSchedulerOptions options_;
  std::vector<int64_t> checkpoint_steps_;
  std::vector<Period> periods_;
};

}  // namespace accel::optim
