// CyclicLR: PyTorch's closed form — the position x within the current cycle gives the fraction
// of the amplitude (rising until step_ratio, falling after), scaled by the mode's function of
// the cycle or of the step count.
#include "accel/optim/schedulers/cyclic_lr.h"

#include <cmath>

namespace accel::optim {

namespace {

// Writes the cycle's bottom rates into the groups, which become the base rates, as PyTorch's
// constructor does.
std::shared_ptr<Optimizer> starting_at(const OptimizerRef& ref, const std::vector<double>& base_lrs,
                                       size_t max_lrs) {
  const std::shared_ptr<Optimizer>& optimizer = ref.shared();
  ACCEL_CHECK(optimizer != nullptr, "CyclicLR", "the optimizer is null");
  std::vector<OptimizerParamGroup>& groups = optimizer->param_groups();
  ACCEL_CHECK(base_lrs.size() == groups.size() && max_lrs == groups.size(), "CyclicLR",
              "expected {} values for base_lr and max_lr (one per parameter group), got {} and {}",
              groups.size(), base_lrs.size(), max_lrs);
  for (size_t i = 0; i < groups.size(); ++i) {
    groups[i].options().set_lr(base_lrs[i]);
    groups[i].set_initial_lr(base_lrs[i]);
  }
  return optimizer;
}

size_t group_count(const OptimizerRef& ref) {
  return ref.shared() ? ref.shared()->param_groups().size() : 0;
}

}  // namespace

CyclicLR::CyclicLR(OptimizerRef optimizer, double base_lr, double max_lr, CyclicLROptions options)
    : CyclicLR(optimizer, std::vector<double>(group_count(optimizer), base_lr),
               std::vector<double>(group_count(optimizer), max_lr), std::move(options)) {}

CyclicLR::CyclicLR(OptimizerRef optimizer, std::vector<double> base_lrs,
                   std::vector<double> max_lrs, CyclicLROptions options)
    : LRScheduler("CyclicLR", starting_at(optimizer, base_lrs, max_lrs.size())),
      max_lrs_(std::move(max_lrs)),
      options_(std::move(options)) {
  const int64_t up = options_.step_size_up();
  const int64_t down = options_.step_size_down().value_or(up);
  ACCEL_CHECK(up > 0, name(), "step_size_up must be positive, got {}", up);
  ACCEL_CHECK(down >= 0, name(), "step_size_down must be non-negative, got {}", down);
  total_size_ = static_cast<double>(up) + static_cast<double>(down);
  step_ratio_ = static_cast<double>(up) / total_size_;
  // Without a scale_fn the mode decides what the scaling follows.
  if (!options_.scale_fn()) {
    options_.scale_mode(options_.mode() == CyclicLROptions::Mode::ExpRange
                            ? CyclicLROptions::ScaleMode::Iterations
                            : CyclicLROptions::ScaleMode::Cycle);
  }
  if (options_.cycle_momentum()) {
    check_has_momentum();
    set_momentum(options_.max_momentum());
  }
  initial_step();
}

double CyclicLR::scale(double cycle) const {
  const double x = options_.scale_mode() == CyclicLROptions::ScaleMode::Cycle
                       ? cycle
                       : static_cast<double>(last_epoch());
  if (options_.scale_fn()) return options_.scale_fn()(x);
  switch (options_.mode()) {
    case CyclicLROptions::Mode::Triangular:
      return 1.0;
    case CyclicLROptions::Mode::Triangular2:
      return 1 / std::pow(2.0, x - 1);
    case CyclicLROptions::Mode::ExpRange:
      return std::pow(options_.gamma(), x);
  }
  return 1.0;
}

std::vector<double> CyclicLR::get_lr(bool) {
  const double epoch = static_cast<double>(last_epoch());
  const double cycle = std::floor(1 + epoch / total_size_);
  const double x = 1.0 + epoch / total_size_ - cycle;
  const double fraction = x <= step_ratio_ ? x / step_ratio_ : (x - 1) / (step_ratio_ - 1);
  const double amplitude_scale = scale(cycle);
  std::vector<double> lrs = base_lrs();
  for (size_t i = 0; i < lrs.size(); ++i) {
    lrs[i] += (max_lrs_[i] - lrs[i]) * fraction * amplitude_scale;
  }
  if (options_.cycle_momentum()) {
    const double max_momentum = options_.max_momentum();
    set_momentum(max_momentum -
                 (max_momentum - options_.base_momentum()) * fraction * amplitude_scale);
  }
  return lrs;
}

}  // namespace accel::optim
