// The training run behind the training-state targets and their seeds: a linear model trained
// with float16 mixed precision (so states carry loss-scaler state), an SGD optimizer with
// momentum, a StepLR scheduler, shuffled batches and gradient accumulation (so a state saved
// mid-way holds pending gradients). Small enough to resume thousands of times a second.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/accel.h"

namespace accel::fuzz {

// The file names of a training-state directory (Trainer::save_training_state).
inline const std::vector<std::string>& training_state_files() {
  static const std::vector<std::string> names{"checkpoint.json",   "trainer_state.json",
                                              "model.safetensors", "optimizer.safetensors",
                                              "scheduler.json",    "gradients.safetensors"};
  return names;
}

// Saves a training state into `dir` at the start of the first train step whose (epoch index,
// step within the epoch) is `at`.
class SaveTrainingStateAt : public Callback {
 public:
  SaveTrainingStateAt(std::string dir, int64_t epoch, int64_t step)
      : dir_(std::move(dir)), epoch_(epoch), step_(step) {}
  void on_train_step_start(Trainer& trainer) override {
    if (!saved_ && trainer.run_history().current_epoch() == epoch_ + 1 &&
        trainer.epoch_step() == step_) {
      trainer.save_training_state(dir_);
      saved_ = true;
    }
  }

 private:
  std::string dir_;
  int64_t epoch_, step_;
  bool saved_ = false;
};

// Trains the tiny model for `num_epochs` (3 batches of 2 samples each, one update per 2
// batches), resuming from `resume_from` when given; `callbacks` may save training states.
inline void tiny_training_run(std::optional<std::string> resume_from,
                              std::vector<std::shared_ptr<Callback>> callbacks = {},
                              int64_t num_epochs = 2) {
  manual_seed(3);
  nn::Linear model(2, 1);
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.05).momentum(0.9));
  auto accelerator = std::make_shared<Accelerator>(
      AcceleratorConfig{.mixed_precision = MixedPrecision::FP16, .device = Device(kCPU)});
  Trainer trainer(model, nn::MSELoss(), optimizer, std::move(callbacks),
                  std::make_shared<InMemoryRunHistory>(), accelerator);
  Tensor x = arange(12, kFloat32).reshape({6, 2}) / 12.0;
  Tensor y = x.sum(1, /*keepdim=*/true);
  trainer.train({.train_dataset = std::make_shared<data::TensorDataset>(x, y),
                 .num_epochs = num_epochs,
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2,
                 .create_scheduler_fn =
                     [](auto opt, const TrainerPlaceholderValues&) {
                       return std::make_shared<optim::StepLR>(opt, 1, 0.5);
                     },
                 .resume_from = std::move(resume_from)});
}

}  // namespace accel::fuzz
