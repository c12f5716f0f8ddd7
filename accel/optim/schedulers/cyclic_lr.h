// CyclicLR: the rates cycle between base_lr and max_lr (up over step_size_up steps, down over
// step_size_down), the amplitude scaled per cycle or per iteration (triangular, triangular2,
// exp_range or a user scale_fn), while the momentum (or Adam's beta1) cycles inversely between
// max_momentum and base_momentum, as PyTorch's.
#pragma once

#include <functional>
#include <optional>

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class CyclicLROptions {
 public:
  enum class Mode { Triangular, Triangular2, ExpRange };
  // What scale_fn is given: the cycle number (from 1) or the step count.
  enum class ScaleMode { Cycle, Iterations };
  using ScaleFn = std::function<double(double)>;
  ACCEL_ARG(int64_t, step_size_up) = 2000;
  ACCEL_ARG(std::optional<int64_t>, step_size_down);  // step_size_up when unset
  ACCEL_ARG(Mode, mode) = Mode::Triangular;
  ACCEL_ARG(double, gamma) = 1.0;  // exp_range's amplitude factor per step
  // Replaces the mode's scaling when set, called with what scale_mode names.
  ACCEL_ARG(ScaleFn, scale_fn);
  ACCEL_ARG(ScaleMode, scale_mode) = ScaleMode::Cycle;
  ACCEL_ARG(bool, cycle_momentum) = true;
  ACCEL_ARG(double, base_momentum) = 0.8;
  ACCEL_ARG(double, max_momentum) = 0.9;
};

class CyclicLR : public LRScheduler {
 public:
  // One base and one maximum rate for all groups.
  CyclicLR(OptimizerRef optimizer, double base_lr, double max_lr,
           CyclicLROptions options = CyclicLROptions());
  // One per group.
  CyclicLR(OptimizerRef optimizer, std::vector<double> base_lrs, std::vector<double> max_lrs,
           CyclicLROptions options = CyclicLROptions());

 private:
  std::vector<double> get_lr(bool initial) override;
  // The amplitude's scale for the current step.
  double scale(double cycle) const;

  std::vector<double> max_lrs_;
  CyclicLROptions options_;
  double total_size_, step_ratio_;
};

}  // namespace accel::optim
