// EarlyStopping: stops the training run (StopTrainingError) once the watched metric has gone
// `patience` epochs without improving by more than `threshold` (an absolute difference).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "accel/core/arg.h"
#include "accel/trainer/callback.h"
#include "accel/trainer/callbacks/best_metric.h"

namespace accel {

struct EarlyStoppingOptions {
  ACCEL_ARG(int64_t, patience) = 1;
  ACCEL_ARG(double, early_stopping_threshold) = 0.01;
  ACCEL_ARG(std::string, watch_metric) = "eval_loss_epoch";
  ACCEL_ARG(bool, greater_is_better) = false;
  // Forget the best value and the counter when a new training run starts.
  ACCEL_ARG(bool, reset_on_train) = true;
};

class EarlyStopping : public Callback {
 public:
  explicit EarlyStopping(EarlyStoppingOptions options = {});

  void on_training_run_start(Trainer& trainer) override;
  void on_training_run_epoch_end(Trainer& trainer) override;
  // The best value and the counter travel in training states.
  const char* state_name() const override { return "EarlyStopping"; }
  std::string state_json() const override;
  void load_state(const io::JsonField& state) override;

  // Epochs in a row without a sufficient improvement.
  int64_t patience_counter() const { return counter_; }
  const std::optional<double>& best_metric() const { return best_.best(); }

 private:
  EarlyStoppingOptions options_;
  BestMetric best_;
  int64_t counter_ = 0;
};

}  // namespace accel
