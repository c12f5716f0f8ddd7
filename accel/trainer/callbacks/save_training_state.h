// SaveTrainingState: saves complete training states (Trainer::save_training_state, enough to
// resume exactly) to save_dir/step_<N>/ every N optimizer updates, save_dir/epoch_<N>/ every N
// epochs and save_dir/final/ at the end, keeping the newest max_checkpoints periodic ones.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>

#include "accel/core/arg.h"
#include "accel/trainer/callback.h"

namespace accel {

struct SaveTrainingStateOptions {
  SaveTrainingStateOptions(std::string save_dir = "training_states")
      : save_dir_(std::move(save_dir)) {}
  ACCEL_ARG(std::string, save_dir);
  ACCEL_ARG(std::optional<int64_t>, save_every_n_epochs) = std::nullopt;
  // Counted in optimizer updates (Trainer::global_step), which a resumed run continues.
  ACCEL_ARG(std::optional<int64_t>, save_every_n_steps) = std::nullopt;
  ACCEL_ARG(bool, save_at_end) = true;
  // The periodic (step_ and epoch_) states kept, oldest removed first; final/ is never removed.
  ACCEL_ARG(std::optional<int64_t>, max_checkpoints) = std::nullopt;
};

class SaveTrainingState : public Callback {
 public:
  explicit SaveTrainingState(SaveTrainingStateOptions options = {});

  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_start(Trainer& trainer) override;
  void on_training_run_epoch_end(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;

 private:
  void save(Trainer& trainer, const std::string& name);
  void remove_old_states(Trainer& trainer);

  SaveTrainingStateOptions options_;
  std::deque<std::filesystem::path> periodic_states_;  // oldest first
  int64_t saved_step_ = 0;                             // the global step of the last step_ state
};

}  // namespace accel
