// StepLR, MultiStepLR and ExponentialLR with PyTorch's recursive get_lr: the current rates are
// scaled at decay epochs and left alone otherwise.
#include "accel/optim/schedulers/step_lr.h"

#include <algorithm>
#include <cmath>

namespace accel::optim {

namespace {

std::vector<double> scaled(std::vector<double> lrs, double factor) {
  for (double& lr : lrs) lr *= factor;
  return lrs;
}

}  // namespace

StepLR::StepLR(OptimizerRef optimizer, int64_t step_size, double gamma)
    : LRScheduler("StepLR", std::move(optimizer)), step_size_(step_size), gamma_(gamma) {
  ACCEL_CHECK(step_size > 0, name(), "step_size must be positive, got {}", step_size);
  initial_step();
}

std::vector<double> StepLR::get_lr(bool) {
  if (last_epoch() == 0 || last_epoch() % step_size_ != 0) return group_lrs();
  return scaled(group_lrs(), gamma_);
}

MultiStepLR::MultiStepLR(OptimizerRef optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler("MultiStepLR", std::move(optimizer)),
      milestones_(std::move(milestones)),
      gamma_(gamma) {
  initial_step();
}

std::vector<double> MultiStepLR::get_lr(bool) {
  const auto hits = std::count(milestones_.begin(), milestones_.end(), last_epoch());
  if (hits == 0) return group_lrs();
  return scaled(group_lrs(), std::pow(gamma_, static_cast<double>(hits)));
}

ExponentialLR::ExponentialLR(OptimizerRef optimizer, double gamma)
    : LRScheduler("ExponentialLR", std::move(optimizer)), gamma_(gamma) {
  initial_step();
}

std::vector<double> ExponentialLR::get_lr(bool initial) {
  if (initial) return group_lrs();
  return scaled(group_lrs(), gamma_);
}

}  // namespace accel::optim
