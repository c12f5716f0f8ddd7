// CosineAnnealingWarmRestarts: step() advances T_cur by one and restarts at T_i; step(epoch)
// finds the period holding the epoch in closed form (geometric periods for T_mult > 1). The
// rates are PyTorch's closed form in T_cur / T_i.
#include "accel/optim/schedulers/cosine_annealing_warm_restarts.h"

#include <cmath>
#include <numbers>

namespace accel::optim {

CosineAnnealingWarmRestarts::CosineAnnealingWarmRestarts(OptimizerRef optimizer, int64_t T_0,
                                                         int64_t T_mult, double eta_min)
    : LRScheduler("CosineAnnealingWarmRestarts", std::move(optimizer)),
      T_0_(T_0),
      T_mult_(T_mult),
      eta_min_(eta_min),
      T_i_(T_0) {
  ACCEL_CHECK(T_0 > 0, name(), "T_0 must be a positive integer, got {}", T_0);
  ACCEL_CHECK(T_mult >= 1, name(), "T_mult must be an integer >= 1, got {}", T_mult);
  initial_step();
}

void CosineAnnealingWarmRestarts::step() {
  T_cur_ += 1;
  if (T_cur_ >= static_cast<double>(T_i_)) {
    T_cur_ = std::fmod(T_cur_, static_cast<double>(T_i_));
    T_i_ *= T_mult_;
  }
  LRScheduler::step();
}

void CosineAnnealingWarmRestarts::step(double epoch) {
  ACCEL_CHECK(epoch >= 0 && epoch <= static_cast<double>(kMaxLastEpoch), name(),
              "epoch must be in [0, {}], got {}", kMaxLastEpoch, epoch);
  const double T_0 = static_cast<double>(T_0_);
  if (epoch < T_0) {
    T_i_ = T_0_;
    T_cur_ = epoch;
  } else if (T_mult_ == 1) {
    T_cur_ = std::fmod(epoch, T_0);
  } else {
    // The epoch lies in period n, which starts at T_0 (T_mult^n - 1) / (T_mult - 1).
    const double mult = static_cast<double>(T_mult_);
    const auto n = static_cast<int64_t>(std::log(epoch / T_0 * (mult - 1) + 1) / std::log(mult));
    int64_t mult_n = 1;
    for (int64_t i = 0; i < n; ++i) mult_n *= T_mult_;
    T_cur_ = epoch - static_cast<double>(T_0_ * (mult_n - 1)) / (mult - 1);
    T_i_ = T_0_ * mult_n;
  }
  step_to(static_cast<int64_t>(std::floor(epoch)));
}

std::vector<double> CosineAnnealingWarmRestarts::get_lr(bool initial) {
  if (initial) {  // construction, or SequentialLR starting this scheduler afresh
    T_cur_ = 0.0;
    T_i_ = T_0_;
  }
  const double cosine = 1 + std::cos(std::numbers::pi * T_cur_ / static_cast<double>(T_i_));
  std::vector<double> lrs = base_lrs();
  for (double& lr : lrs) lr = eta_min_ + (lr - eta_min_) * cosine / 2;
  return lrs;
}

LRSchedulerState CosineAnnealingWarmRestarts::state_dict() const {
  LRSchedulerState state = LRScheduler::state_dict();
  state.values = {{"T_cur", T_cur_}, {"T_i", static_cast<double>(T_i_)}};
  return state;
}

void CosineAnnealingWarmRestarts::check_state(const LRSchedulerState& state) const {
  LRScheduler::check_state(state);
  for (const char* key : {"T_cur", "T_i"}) {
    ACCEL_CHECK(state.values.count(key), name(), "the state has no '{}'", key);
  }
  const double T_i = state.values.at("T_i");
  const double T_cur = state.values.at("T_cur");
  ACCEL_CHECK(T_i >= 1 && T_i <= static_cast<double>(kMaxLastEpoch) && T_i == std::floor(T_i),
              name(), "the state's 'T_i' must be a whole number in [1, {}], got {}", kMaxLastEpoch,
              T_i);
  ACCEL_CHECK(std::isfinite(T_cur), name(), "the state's 'T_cur' must be finite, got {}", T_cur);
}

void CosineAnnealingWarmRestarts::load_state_dict(const LRSchedulerState& state) {
  LRScheduler::load_state_dict(state);  // checks the values too
  T_cur_ = state.values.at("T_cur");
  T_i_ = static_cast<int64_t>(state.values.at("T_i"));
}

}  // namespace accel::optim
