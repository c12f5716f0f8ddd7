// LogMetrics: prints the latest value of the run history's metrics, those whose names contain
// "train" after a train epoch and the others after an eval epoch, on the main process. Override
// log_metrics to send them elsewhere (a file, an experiment tracker).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "accel/trainer/callback.h"

namespace accel {

class LogMetrics : public Callback {
 public:
  void on_train_epoch_end(Trainer& trainer) override;
  void on_eval_epoch_end(Trainer& trainer) override;

  // Called on the main process with (name, latest value) pairs in first-recorded order.
  virtual void log_metrics(Trainer& trainer,
                           const std::vector<std::pair<std::string, double>>& metrics);

 private:
  void log_latest(Trainer& trainer, bool train_metrics);
};

}  // namespace accel
