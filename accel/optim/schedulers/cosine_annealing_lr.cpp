// CosineAnnealingLR: each step scales the distance to eta_min by the ratio of consecutive
// cosine factors; at the bottom of a period it adds back the first step's decrement.
#include "accel/optim/schedulers/cosine_annealing_lr.h"

#include <cmath>
#include <numbers>

namespace accel::optim {

CosineAnnealingLR::CosineAnnealingLR(OptimizerRef optimizer, int64_t T_max, double eta_min)
    : LRScheduler("CosineAnnealingLR", std::move(optimizer)), t_max_(T_max), eta_min_(eta_min) {
  ACCEL_CHECK(T_max > 0, name(), "T_max must be positive, got {}", T_max);
  initial_step();
}

std::vector<double> CosineAnnealingLR::get_lr(bool initial) {
  std::vector<double> lrs = group_lrs();
  if (initial) return lrs;
  const double pi = std::numbers::pi;
  const auto t = static_cast<double>(t_max_);
  const auto epoch = static_cast<double>(last_epoch());
  const int64_t period = 2 * t_max_;
  const int64_t phase = ((last_epoch() - 1 - t_max_) % period + period) % period;  // Python %
  for (size_t i = 0; i < lrs.size(); ++i) {
    if (phase == 0) {
      lrs[i] += (base_lrs()[i] - eta_min_) * (1 - std::cos(pi / t)) / 2;
    } else {
      lrs[i] = (1 + std::cos(pi * epoch / t)) / (1 + std::cos(pi * (epoch - 1) / t)) *
                   (lrs[i] - eta_min_) +
               eta_min_;
    }
  }
  return lrs;
}

}  // namespace accel::optim
