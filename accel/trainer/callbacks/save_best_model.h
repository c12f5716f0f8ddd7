// SaveBestModel: after each epoch (train and eval), saves a checkpoint when the watched metric
// improved, and loads the best one when the training run ends. The checkpoint's extras hold the
// metric under its own name, whether the first save or a later one (a defect of the original).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "accel/core/arg.h"
#include "accel/trainer/callback.h"
#include "accel/trainer/callbacks/best_metric.h"

namespace accel {

struct SaveBestModelOptions {
  SaveBestModelOptions(std::string save_path = "best_model") : save_path_(std::move(save_path)) {}
  // The checkpoint directory (Trainer::save_checkpoint).
  ACCEL_ARG(std::string, save_path);
  // A run-history metric recorded every epoch.
  ACCEL_ARG(std::string, watch_metric) = "eval_loss_epoch";
  ACCEL_ARG(bool, greater_is_better) = false;
  // Forget the best value when a new training run starts.
  ACCEL_ARG(bool, reset_on_train) = true;
  ACCEL_ARG(bool, save_optimizer) = true;
  ACCEL_ARG(bool, save_scheduler) = true;
  // Load the best checkpoint (with the optimizer and scheduler state saved) at the run's end.
  ACCEL_ARG(bool, load_saved_checkpoint) = true;
};

class SaveBestModel : public Callback {
 public:
  explicit SaveBestModel(SaveBestModelOptions options = {});

  void on_training_run_start(Trainer& trainer) override;
  void on_training_run_epoch_end(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;
  // The best value and its epoch travel in training states: a resumed run overwrites the
  // checkpoint only with a better one.
  const char* state_name() const override { return "SaveBestModel"; }
  std::string state_json() const override;
  void load_state(const io::JsonField& state) override;

  const std::optional<double>& best_metric() const { return best_.best(); }
  // The run-history epoch of the best value (0 before any).
  int64_t best_metric_epoch() const { return best_epoch_; }
  const SaveBestModelOptions& options() const { return options_; }

 private:
  SaveBestModelOptions options_;
  BestMetric best_;
  int64_t best_epoch_ = 0;
};

}  // namespace accel
