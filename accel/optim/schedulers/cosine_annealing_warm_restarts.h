// CosineAnnealingWarmRestarts (SGDR): the rates anneal from the base rates to eta_min along a
// cosine over T_i epochs, then restart, each period T_mult times the previous (T_0 first), as
// PyTorch's. step(epoch) jumps to any epoch, fractional ones included.
#pragma once

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

class CosineAnnealingWarmRestarts : public LRScheduler {
 public:
  CosineAnnealingWarmRestarts(OptimizerRef optimizer, int64_t T_0, int64_t T_mult = 1,
                              double eta_min = 0.0);

  void step() override;
  // Sets the rates for `epoch` (>= 0; fractional within a period, as stepping per batch with
  // epoch + batch / batches); last_epoch becomes its floor.
  void step(double epoch);
  // Epochs since the last restart, and the current period.
  double T_cur() const { return T_cur_; }
  int64_t T_i() const { return T_i_; }

  // values: "T_cur", "T_i".
  LRSchedulerState state_dict() const override;
  void load_state_dict(const LRSchedulerState& state) override;
  void check_state(const LRSchedulerState& state) const override;

 private:
  std::vector<double> get_lr(bool initial) override;

  int64_t T_0_, T_mult_;
  double eta_min_;
  double T_cur_ = 0.0;
  int64_t T_i_;
};

}  // namespace accel::optim
