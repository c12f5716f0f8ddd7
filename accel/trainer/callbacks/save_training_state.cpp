// SaveTrainingState: step-based states are taken at the start of the first batch after the
// update (nothing of that batch has run yet, so a resumed run replays it exactly); epoch and
// final states at the end of each epoch (after its evaluation) and of the run.
#include "accel/trainer/callbacks/save_training_state.h"

#include <nlohmann/json.hpp>

#include "accel/base/error.h"
#include "accel/trainer/trainer.h"

namespace accel {

SaveTrainingState::SaveTrainingState(SaveTrainingStateOptions options)
    : options_(std::move(options)) {
  const char* op = "SaveTrainingState";
  ACCEL_CHECK(options_.save_every_n_epochs().value_or(1) > 0, op,
              "expected save_every_n_epochs > 0, found {}", *options_.save_every_n_epochs());
  ACCEL_CHECK(options_.save_every_n_steps().value_or(1) > 0, op,
              "expected save_every_n_steps > 0, found {}", *options_.save_every_n_steps());
  ACCEL_CHECK(options_.max_checkpoints().value_or(1) > 0, op,
              "expected max_checkpoints > 0, found {}", *options_.max_checkpoints());
}

void SaveTrainingState::on_training_run_start(Trainer& trainer) {
  if (trainer.accelerator().is_main_process()) {
    std::filesystem::create_directories(options_.save_dir());
  }
  saved_step_ = trainer.global_step();
}

void SaveTrainingState::on_train_step_start(Trainer& trainer) {
  const auto every = options_.save_every_n_steps();
  const int64_t step = trainer.global_step();
  if (!every || step == saved_step_ || step % *every != 0) return;
  saved_step_ = step;
  save(trainer, "step_" + std::to_string(step));
}

void SaveTrainingState::on_training_run_epoch_end(Trainer& trainer) {
  const auto every = options_.save_every_n_epochs();
  const int64_t epoch = trainer.run_history().current_epoch();
  if (every && epoch % *every == 0) save(trainer, "epoch_" + std::to_string(epoch));
}

void SaveTrainingState::on_training_run_end(Trainer& trainer) {
  if (options_.save_at_end()) save(trainer, "final");
}

void SaveTrainingState::save(Trainer& trainer, const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(options_.save_dir()) / name;
  const nlohmann::json extras = {{"global_step", trainer.global_step()}};
  trainer.save_training_state(dir.string(), extras.dump());
  trainer.print("\nSaved training state to {}", dir.string());
  if (name == "final") return;
  std::erase(periodic_states_, dir);  // saved again under the same name: now the newest
  periodic_states_.push_back(dir);
  remove_old_states(trainer);
}

void SaveTrainingState::remove_old_states(Trainer& trainer) {
  const auto max = options_.max_checkpoints();
  if (!max) return;
  while (static_cast<int64_t>(periodic_states_.size()) > *max) {
    const std::filesystem::path oldest = periodic_states_.front();
    periodic_states_.pop_front();
    if (trainer.accelerator().is_main_process()) {
      std::filesystem::remove_all(oldest);
      trainer.print("Removed old training state: {}", oldest.string());
    }
  }
}

}  // namespace accel
