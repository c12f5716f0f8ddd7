// LinearLR: the first step applies start_factor; each later step scales the current rate by
// the ratio of consecutive linear factors until total_iters.
#include "accel/optim/schedulers/linear_lr.h"

namespace accel::optim {

LinearLR::LinearLR(OptimizerRef optimizer, double start_factor, double end_factor,
                   int64_t total_iters)
    : LRScheduler("LinearLR", std::move(optimizer)),
      start_factor_(start_factor),
      end_factor_(end_factor),
      total_iters_(total_iters) {
  ACCEL_CHECK(start_factor > 0 && start_factor <= 1, name(),
              "start_factor must be in (0, 1], got {}", start_factor);
  ACCEL_CHECK(end_factor >= 0 && end_factor <= 1, name(), "end_factor must be in [0, 1], got {}",
              end_factor);
  ACCEL_CHECK(total_iters > 0, name(), "total_iters must be positive, got {}", total_iters);
  initial_step();
}

std::vector<double> LinearLR::get_lr(bool initial) {
  std::vector<double> lrs = group_lrs();
  if (last_epoch() == 0) {
    for (double& lr : lrs) lr *= start_factor_;
    return lrs;
  }
  if (initial || last_epoch() > total_iters_) return lrs;
  const double delta = end_factor_ - start_factor_;
  const double factor = 1.0 + delta / (static_cast<double>(total_iters_) * start_factor_ +
                                       static_cast<double>(last_epoch() - 1) * delta);
  for (double& lr : lrs) lr *= factor;
  return lrs;
}

}  // namespace accel::optim
