// ReduceLROnPlateau: multiplies the rates by `factor` once a monitored metric has not improved
// for more than `patience` steps, then waits `cooldown` steps, as PyTorch's. It is stepped
// with the metric, so it is not an LRScheduler.
#pragma once

#include <memory>

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class ReduceLROnPlateauOptions {
 public:
  enum class Mode { Min, Max };  // whether a lower or a higher metric is better
  enum class ThresholdMode { Rel, Abs };
  ACCEL_ARG(Mode, mode) = Mode::Min;
  ACCEL_ARG(double, factor) = 0.1;
  ACCEL_ARG(int64_t, patience) = 10;
  ACCEL_ARG(double, threshold) = 1e-4;
  ACCEL_ARG(ThresholdMode, threshold_mode) = ThresholdMode::Rel;
  ACCEL_ARG(int64_t, cooldown) = 0;
  ACCEL_ARG(double, min_lr) = 0;
  ACCEL_ARG(double, eps) = 1e-8;  // smaller reductions are not applied
};

class ReduceLROnPlateau {
 public:
  ReduceLROnPlateau(OptimizerRef optimizer,
                    ReduceLROnPlateauOptions options = ReduceLROnPlateauOptions());

  void step(double metric);
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  int64_t last_epoch() const { return last_epoch_; }

  // values: "best", "num_bad_epochs", "cooldown_counter".
  LRSchedulerState state_dict() const;
  void load_state_dict(const LRSchedulerState& state);

 private:
  bool is_better(double metric) const;
  std::vector<double> group_lrs() const;

  std::shared_ptr<Optimizer> optimizer_;
  ReduceLROnPlateauOptions options_;
  int64_t last_epoch_ = 0;
  std::vector<double> last_lr_;
  double best_;
  int64_t num_bad_epochs_ = 0;
  int64_t cooldown_counter_ = 0;
};

}  // namespace accel::optim
