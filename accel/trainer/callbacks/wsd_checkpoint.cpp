// WSDCheckpoint: the original's schedule of saves, read from the scheduler's periods. Saves are
// made at the start of the first batch after an update (as SaveTrainingState's, so a resumed
// run replays that batch exactly) and at the end of the run.
#include "accel/trainer/callbacks/wsd_checkpoint.h"

#include <fmt/chrono.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "accel/base/error.h"
#include "accel/optim/schedulers/wsd_lr_scheduler.h"
#include "accel/trainer/trainer.h"

namespace accel {

WSDCheckpoint::WSDCheckpoint(WSDCheckpointOptions options) : options_(std::move(options)) {
  ACCEL_CHECK(!options_.initial_training_state() || !options_.initial_checkpoint(), "WSDCheckpoint",
              "expected at most one of initial_training_state and initial_checkpoint, found both "
              "({} and {})",
              *options_.initial_training_state(), *options_.initial_checkpoint());
}

const optim::WSDLrScheduler& WSDCheckpoint::scheduler_of(const Trainer& trainer) {
  const auto* scheduler = dynamic_cast<const optim::WSDLrScheduler*>(trainer.scheduler().get());
  ACCEL_CHECK(scheduler != nullptr, "WSDCheckpoint",
              "expected the trainer's scheduler to be a WSDLrScheduler (create_scheduler_fn), "
              "found {}",
              trainer.scheduler() ? "another scheduler" : "no scheduler");
  return *scheduler;
}

int64_t WSDCheckpoint::updates_done(const Trainer& trainer) {
  return scheduler_of(trainer).num_updates() + 1;
}

void WSDCheckpoint::on_training_run_start(Trainer& trainer) {
  scheduler_of(trainer);
  last_checkpoint_step_.reset();
  if (trainer.accelerator().is_main_process()) {
    std::filesystem::create_directories(options_.save_dir());
  }
  const auto& state = options_.initial_training_state();
  const auto& checkpoint = options_.initial_checkpoint();
  if (!state && !checkpoint) return;
  trainer.print("\nLoading checkpoint from {}", state ? *state : *checkpoint);
  if (state) {
    trainer.load_training_state(*state);
  } else {
    trainer.load_checkpoint(*checkpoint);
  }
  // Not to save again the checkpoint just loaded.
  last_checkpoint_step_ = updates_done(trainer);
  trainer.print("Loaded {} from step {}",
                state ? "wsd_pre_decay training state" : "wsd_post_decay checkpoint",
                *last_checkpoint_step_);
}

void WSDCheckpoint::on_train_step_start(Trainer& trainer) {
  const int64_t step = updates_done(trainer);
  if (step == last_checkpoint_step_) return;
  const auto& period = scheduler_of(trainer).phase_info(step);
  if (step == period.pre_decay_step) {
    trainer.print("\nWSD Lr Scheduler entering decay phase at step {}", step);
    save(trainer, step, /*pre_decay=*/true);
  } else if (step == period.period_end) {
    save(trainer, step, /*pre_decay=*/false);
  }
}

void WSDCheckpoint::on_training_run_end(Trainer& trainer) {
  const int64_t step = updates_done(trainer);
  if (step != last_checkpoint_step_ && step == scheduler_of(trainer).phase_info(step).period_end) {
    save(trainer, step, /*pre_decay=*/false);
  }
}

void WSDCheckpoint::save(Trainer& trainer, int64_t step, bool pre_decay) {
  const char* type = pre_decay ? "wsd_pre_decay" : "wsd_post_decay";
  const std::string path =
      (std::filesystem::path(options_.save_dir()) / fmt::format("checkpoint_{}_{}", step, type))
          .string();
  const TrainerRunConfig& config = trainer.run_config();
  const int64_t epoch_steps = config.num_epochs * config.num_update_steps_per_epoch;
  const nlohmann::json extras = {
      {"step", step},
      {"checkpoint_type", type},
      {"total_steps", std::min(config.max_num_train_steps.value_or(epoch_steps), epoch_steps)},
      {"timestamp", fmt::format("{:%FT%T}", fmt::localtime(std::time(nullptr)))}};
  if (pre_decay) {
    trainer.save_training_state(path, extras.dump());
  } else {
    trainer.save_checkpoint(path, extras.dump(), options_.save_optimizer(),
                            options_.save_scheduler());
  }
  trainer.print("\nSaved {} {} at step {}", type, pre_decay ? "training state" : "checkpoint",
                step);
  last_checkpoint_step_ = step;
}

}  // namespace accel
