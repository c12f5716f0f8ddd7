// GradScaler: the dynamic loss-scale bookkeeping around the unscale kernel.
#include "accel/trainer/grad_scaler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel {

GradScaler::GradScaler(GradScalerOptions options) : options_(options) {
  ACCEL_CHECK(options.init_scale > 0 && std::isfinite(options.init_scale), "GradScaler",
              "init_scale must be positive and finite, got {}", options.init_scale);
  ACCEL_CHECK(options.growth_factor > 1, "GradScaler", "growth_factor must be > 1, got {}",
              options.growth_factor);
  ACCEL_CHECK(options.backoff_factor > 0 && options.backoff_factor < 1, "GradScaler",
              "backoff_factor must be in (0, 1), got {}", options.backoff_factor);
  ACCEL_CHECK(options.growth_interval > 0, "GradScaler", "growth_interval must be positive, got {}",
              options.growth_interval);
  state_.scale = options.init_scale;
}

Tensor GradScaler::scale(const Tensor& loss) const { return mul(loss, state_.scale); }

void GradScaler::unscale_(optim::Optimizer& optimizer) {
  ACCEL_CHECK(!unscaled_, "GradScaler::unscale_",
              "unscale_() was already called for this step; call update() after each step");
  NoGradGuard no_grad;
  const double inv_scale = 1.0 / state_.scale;
  for (auto& group : optimizer.param_groups()) {
    for (const Tensor& param : group.params()) {
      Tensor grad = param.grad();
      if (!grad.defined()) continue;
      if (!grad.is_contiguous()) grad = grad.contiguous();
      const Device device = grad.device();
      backend(device).unscale_gradient(grad.dtype(), grad.numel(), grad.data_ptr(), inv_scale,
                                       found_inf_flag(device).data_ptr<float>(),
                                       current_stream(device));
      if (Tensor stored = param.grad(); !grad.is_same(stored)) stored.copy_(grad);
    }
  }
  unscaled_ = true;
}

Tensor& GradScaler::found_inf_flag(Device device) {
  for (Tensor& flag : found_inf_flags_) {
    if (flag.device() == device) return flag;
  }
  return found_inf_flags_.emplace_back(zeros({}, TensorOptions(kFloat32).device(device)));
}

bool GradScaler::found_inf() const {
  if (!found_inf_) {
    found_inf_ = false;
    for (const Tensor& flag : found_inf_flags_) {
      if (flag.item<float>() != 0) found_inf_ = true;
    }
  }
  return *found_inf_;
}

bool GradScaler::step(optim::Optimizer& optimizer) {
  if (!unscaled_) unscale_(optimizer);
  if (found_inf()) return false;
  optimizer.step();
  return true;
}

void GradScaler::update() {
  const bool skipped = found_inf();
  if (skipped) {
    // A scale already below the floor (set so by the user) is left where it is.
    if (state_.scale > kMinScale) {
      state_.scale = std::max(state_.scale * options_.backoff_factor, kMinScale);
    }
    state_.growth_tracker = 0;
  } else if (++state_.growth_tracker == options_.growth_interval) {
    state_.scale *= options_.growth_factor;
    state_.growth_tracker = 0;
  }
  ++state_.steps;
  unscaled_ = false;
  found_inf_flags_.clear();
  found_inf_.reset();
  if (skipped) {
    note_skipped_step();
  } else {
    state_.skipped_in_a_row = 0;
  }
}

void GradScaler::note_skipped_step() {
  const int64_t skipped = ++state_.skipped_in_a_row;
  // Steps are numbered from 1 in the run (across resumes); the stretch began at `first_skipped`.
  const int64_t first_skipped = state_.steps - skipped + 1;
  ACCEL_CHECK(skipped < kMaxSkippedSteps, "GradScaler",
              "no optimizer step succeeded for {} steps in a row (since step {} of this run): "
              "every one had an inf or NaN gradient whatever the loss scale (now {:g}); look for "
              "a non-finite loss or input",
              skipped, first_skipped, state_.scale);
  if (skipped == kWarnAfterSkippedSteps) {
    fmt::print(stderr,
               "warning: GradScaler: the last {} optimizer steps (since step {} of this run) were "
               "skipped for inf or NaN gradients, the loss scale is down to {:g}; training stops "
               "after {} skipped steps in a row\n",
               skipped, first_skipped, state_.scale, kMaxSkippedSteps);
  }
}

void GradScaler::load_state(const GradScalerState& state) {
  ACCEL_CHECK(state.scale > 0 && std::isfinite(state.scale), "GradScaler::load_state",
              "scale must be positive and finite, got {}", state.scale);
  ACCEL_CHECK(state.growth_tracker >= 0, "GradScaler::load_state",
              "growth_tracker must be >= 0, got {}", state.growth_tracker);
  ACCEL_CHECK(state.skipped_in_a_row >= 0 && state.skipped_in_a_row <= state.steps,
              "GradScaler::load_state", "skipped_in_a_row must lie in [0, steps = {}], got {}",
              state.steps, state.skipped_in_a_row);
  state_ = state;
}

}  // namespace accel
