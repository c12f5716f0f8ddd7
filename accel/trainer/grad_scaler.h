// GradScaler: dynamic loss scaling for float16 mixed precision, as torch.amp.GradScaler. The
// loss is multiplied by the scale before backward; before the update the gradients are
// unscaled and checked; a step with an inf/NaN gradient is skipped and the scale backs off,
// and after growth_interval clean steps in a row the scale grows.
#pragma once

#include <cstdint>

#include "accel/core/tensor.h"
#include "accel/optim/optimizer.h"

namespace accel {

struct GradScalerOptions {
  double init_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
};

struct GradScalerState {
  double scale = 65536.0;
  int64_t growth_tracker = 0;  // clean steps since the scale last changed
};

class GradScaler {
 public:
  explicit GradScaler(GradScalerOptions options = {});

  // loss × scale.
  Tensor scale(const Tensor& loss) const;
  // Divides every gradient of `optimizer` by the scale, once per step (a second call before
  // update() is an error, as in PyTorch), noting whether any was inf or NaN.
  void unscale_(optim::Optimizer& optimizer);
  // Unscales if not done yet, then steps the optimizer unless a gradient was not finite.
  // Returns whether the optimizer stepped.
  bool step(optim::Optimizer& optimizer);
  // Backs the scale off after a skipped step, grows it after growth_interval clean ones, and
  // starts the next step.
  void update();

  double get_scale() const { return state_.scale; }
  bool found_inf() const { return found_inf_; }
  // Whether unscale_() already ran for the current step.
  bool has_unscaled() const { return unscaled_; }
  const GradScalerState& state() const { return state_; }
  void load_state(const GradScalerState& state);

 private:
  GradScalerOptions options_;
  GradScalerState state_;
  bool unscaled_ = false;
  bool found_inf_ = false;
};

}  // namespace accel
