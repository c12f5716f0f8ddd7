// GradScaler: dynamic loss scaling for float16 mixed precision, as torch.amp.GradScaler. The
// loss is multiplied by the scale before backward; before the update the gradients are
// unscaled and checked; a step with an inf/NaN gradient is skipped and the scale backs off,
// and after growth_interval clean steps in a row the scale grows. Whether a gradient was not
// finite is a flag tensor on the gradients' device, read back once per step. Unlike PyTorch,
// the scale has a floor, and a long run of skipped steps warns and then stops training.
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
  // update() calls so far, and the skipped steps among the latest (saved with the rest, so a
  // resumed run keeps counting a stretch of skipped steps).
  int64_t steps = 0;
  int64_t skipped_in_a_row = 0;
};

class GradScaler {
 public:
  // Backing off never takes the scale below 2^-24. Without a floor a long inf/NaN stretch
  // halves it to 0 (~1090 skips from 65536), after which loss × 0 unscaled by 1/0 is NaN for
  // every later step and training can never recover. At 2^-24 a float16 gradient may still be
  // as large as ~1e12 (so genuinely huge gradients keep backing off as in PyTorch), and the
  // scale regrows to 1 in 24 growth intervals once gradients are finite again.
  static constexpr double kMinScale = 0x1p-24;
  // Skipped steps in a row after which a warning goes to stderr, once per stretch: a few skips
  // while the scale settles are normal, this many mean the gradients are not finite at any
  // scale (40 backoffs reach the floor from the default 65536).
  static constexpr int64_t kWarnAfterSkippedSteps = 100;
  // Skipped steps in a row after which update() throws: the model has not been updated for
  // that long, so the run is wasting its time (a NaN in the data or a diverged loss).
  static constexpr int64_t kMaxSkippedSteps = 2000;

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
  // starts the next step. Warns after kWarnAfterSkippedSteps skipped steps in a row and throws
  // after kMaxSkippedSteps.
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
  // Counts a skipped step, warning or throwing when the stretch has grown too long.
  void note_skipped_step();

  GradScalerOptions options_;
  GradScalerState state_;
  bool unscaled_ = false;
  std::vector<Tensor> found_inf_flags_;
  mutable std::optional<bool> found_inf_;  // the flags as read back, once per step
};

}  // namespace accel
