// WSDCheckpoint: the checkpoints of a warmup-stable-decay schedule (optim::WSDLrScheduler, which
// must be the trainer's scheduler). Before each decay phase it saves a full training state, to
// continue training from with a new decay (WSD); after each decay phase, a checkpoint of the
// decayed weights (WSD-S continues from those).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "accel/core/arg.h"
#include "accel/trainer/callback.h"

namespace accel {

namespace optim {
class WSDLrScheduler;
}

struct WSDCheckpointOptions {
  WSDCheckpointOptions(std::string save_dir = "checkpoints") : save_dir_(std::move(save_dir)) {}
  // Holds checkpoint_<step>_wsd_pre_decay/ (training states) and
  // checkpoint_<step>_wsd_post_decay/ (checkpoints).
  ACCEL_ARG(std::string, save_dir);
  // Whether the post-decay checkpoints carry the optimizer and scheduler state.
  ACCEL_ARG(bool, save_optimizer) = true;
  ACCEL_ARG(bool, save_scheduler) = true;
  // Loaded when the training run starts, at most one of the two: a pre-decay training state
  // (Trainer::load_training_state) or a post-decay checkpoint (Trainer::load_checkpoint).
  ACCEL_ARG(std::optional<std::string>, initial_training_state) = std::nullopt;
  ACCEL_ARG(std::optional<std::string>, initial_checkpoint) = std::nullopt;
};

class WSDCheckpoint : public Callback {
 public:
  explicit WSDCheckpoint(WSDCheckpointOptions options = {});

  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_start(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;

 private:
  // The trainer's scheduler as a WSDLrScheduler; an error if it is not one.
  static const optim::WSDLrScheduler& scheduler_of(const Trainer& trainer);
  // Optimizer updates the scheduler has seen.
  static int64_t updates_done(const Trainer& trainer);
  void save(Trainer& trainer, int64_t step, bool pre_decay);

  WSDCheckpointOptions options_;
  std::optional<int64_t> last_checkpoint_step_;
};

}  // namespace accel
