// GradScaler: the dynamic loss-scale bookkeeping around the unscale kernel.
#include "accel/trainer/grad_scaler.h"

#include <cmath>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/error.h"
#include "accel/core/ops.h"
#include "accel/kernels/cpu/loss_scaling.h"

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
      ACCEL_CHECK(grad.device().is_cpu(), "GradScaler::unscale_",
                  "gradients on {} are not supported by this build's unscale kernel",
                  grad.device());
      if (!grad.is_contiguous()) grad = grad.contiguous();
      if (cpu::unscale_gradient(grad.dtype(), grad.numel(), grad.data_ptr(), inv_scale)) {
        found_inf_ = true;
      }
      if (Tensor stored = param.grad(); !grad.is_same(stored)) stored.copy_(grad);
    }
  }
  unscaled_ = true;
}

bool GradScaler::step(optim::Optimizer& optimizer) {
  if (!unscaled_) unscale_(optimizer);
  if (found_inf_) return false;
  optimizer.step();
  return true;
}

void GradScaler::update() {
  if (found_inf_) {
    state_.scale *= options_.backoff_factor;
    state_.growth_tracker = 0;
  } else if (++state_.growth_tracker == options_.growth_interval) {
    state_.scale *= options_.growth_factor;
    state_.growth_tracker = 0;
  }
  unscaled_ = false;
  found_inf_ = false;
}

void GradScaler::load_state(const GradScalerState& state) {
  ACCEL_CHECK(state.scale > 0 && std::isfinite(state.scale), "GradScaler::load_state",
              "scale must be positive and finite, got {}", state.scale);
  ACCEL_CHECK(state.growth_tracker >= 0, "GradScaler::load_state",
              "growth_tracker must be >= 0, got {}", state.growth_tracker);
  state_ = state;
}

}  // namespace accel
