// OneCycleLR: the 1cycle policy, as PyTorch's — the rate rises from max_lr / div_factor to
// max_lr over pct_start of total_steps, then anneals to the initial rate / final_div_factor
// (three_phase: back to the initial rate first), while the momentum (or Adam's beta1) cycles
// inversely between max_momentum and base_momentum.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class OneCycleLROptions {
 public:
  enum class AnnealStrategy { Cos, Linear };
  ACCEL_ARG(double, pct_start) = 0.3;
  ACCEL_ARG(AnnealStrategy, anneal_strategy) = AnnealStrategy::Cos;
  ACCEL_ARG(bool, cycle_momentum) = true;
  ACCEL_ARG(double, base_momentum) = 0.85;
  ACCEL_ARG(double, max_momentum) = 0.95;
  ACCEL_ARG(double, div_factor) = 25.0;
  ACCEL_ARG(double, final_div_factor) = 1e4;
  ACCEL_ARG(bool, three_phase) = false;
};

class OneCycleLR : public LRScheduler {
 public:
  OneCycleLR(OptimizerRef optimizer, double max_lr, int64_t total_steps,
             OneCycleLROptions options = OneCycleLROptions());

 private:
  // One stretch of the cycle: from step `previous phase end` to end_step, between two values.
  struct Phase {
    double end_step;
    double start_lr, end_lr;
    double start_momentum, end_momentum;
  };
  std::vector<double> get_lr(bool initial) override;
  double anneal(double start, double end, double pct) const;

  int64_t total_steps_;
  OneCycleLROptions options_;
  std::vector<Phase> phases_;
};

}  // namespace accel::optim
