// ModelEmaCallback: keeps a ModelEma of the model being trained, updated after every optimizer
// update; after each eval epoch it evaluates the average (swapped into the model) under the
// metric prefix "ema_model_" and saves the best average as a checkpoint. Place it after
// callbacks that record metrics and before those that read them (loggers).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "accel/core/arg.h"
#include "accel/trainer/callback.h"
#include "accel/trainer/callbacks/save_best_model.h"
#include "accel/trainer/model_ema.h"

namespace accel {

struct ModelEmaCallbackOptions {
  ACCEL_ARG(double, decay) = 0.99;
  // Evaluate the average after each eval epoch and keep the best; otherwise save the average
  // after every epoch.
  ACCEL_ARG(bool, evaluate_during_training) = true;
  ACCEL_ARG(std::string, save_path) = "ema_model";
  ACCEL_ARG(std::string, watch_metric) = "ema_model_eval_loss_epoch";
  ACCEL_ARG(bool, greater_is_better) = false;
};

class ModelEmaCallback : public Callback {
 public:
  explicit ModelEmaCallback(ModelEmaCallbackOptions options = {});

  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_train_epoch_end(Trainer& trainer) override;
  void on_eval_epoch_end(Trainer& trainer) override;
  void on_training_run_epoch_end(Trainer& trainer) override;

  // The average of the current (or last) training run; null before one starts.
  const ModelEma* model_ema() const { return ema_ ? &*ema_ : nullptr; }

  static constexpr const char* kMetricPrefix = "ema_model_";

 private:
  // Folds the model into the average when an optimizer update happened since the last fold.
  void update_after_optimizer_step(Trainer& trainer);

  ModelEmaCallbackOptions options_;
  // The best-average checkpointing: SaveBestModel's rule on the average's metric, without the
  // optimizer state and without loading the average at the end.
  SaveBestModel best_saver_;
  std::optional<ModelEma> ema_;
  int64_t folded_step_ = 0;  // the global step last folded into the average
  bool evaluating_ = false;  // the average's own eval epoch is running
};

}  // namespace accel
