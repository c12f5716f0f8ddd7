// GradScaler: dynamic loss scaling for float16 mixed precision, as torch.amp.GradScaler. The
// loss is multiplied by the scale before backward; before the update the gradients are
// unscaled and checked; a step with an inf/NaN gradient is skipped and the scale backs off,
// and after growth_interval clean steps in a row the scale grows. Whether a gradient was not
// finite is a flag tensor on the gradients' device, read back once per step.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

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
  // Whether unscale_() met an inf or NaN gradient in this step (reads the device flags once).
  bool found_inf() const;
  // Whether unscale_() already ran for the current step.
  bool has_unscaled() const { return unscaled_; }
  const GradScalerState& state() const { return state_; }
  void load_state(const GradScalerState& state);

 private:
  // The found-inf flag of each device holding gradients: float32 scalars, 1 after an inf/NaN.
  Tensor& found_inf_flag(Device device);

  GradScalerOptions options_;
  GradScalerState state_;
  bool unscaled_ = false;
  std::vector<Tensor> found_inf_flags_;
  mutable std::optional<bool> found_inf_;  // the flags as read back, once per step
};

}  // namespace accel
