// PolynomialLR: each step scales the current rates by the ratio of consecutive polynomial
// factors, ((1 - t / total) / (1 - (t - 1) / total))^power, up to total_iters.
#include "accel/optim/schedulers/polynomial_lr.h"

#include <cmath>

namespace accel::optim {

PolynomialLR::PolynomialLR(OptimizerRef optimizer, int64_t total_iters, double power)
    : LRScheduler("PolynomialLR", std::move(optimizer)), total_iters_(total_iters), power_(power) {
  initial_step();
}

std::vector<double> PolynomialLR::get_lr(bool initial) {
  std::vector<double> lrs = group_lrs();
  if (initial || last_epoch() > total_iters_) return lrs;
  const double total = static_cast<double>(total_iters_);
  const double epoch = static_cast<double>(last_epoch());
  const double decay = std::pow((1.0 - epoch / total) / (1.0 - (epoch - 1) / total), power_);
  for (double& lr : lrs) lr *= decay;
  return lrs;
}

}  // namespace accel::optim
