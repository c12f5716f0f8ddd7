// EpochMetrics: the base of the callbacks that log metrics per period (an epoch of a training
// run, or an evaluation run): LogMetrics, CSVLogger, TensorBoardLogger. A period's metrics are
// handed on once the next period starts (or the run ends), so a metric recorded by any callback
// at any event of the epoch is among them, whatever the callbacks' order.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accel/trainer/callback.h"

namespace accel {

class EpochMetrics : public Callback {
 public:
  void on_train_epoch_start(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;
  void on_evaluation_run_start(Trainer& trainer) override;
  void on_evaluation_run_end(Trainer& trainer) override;

  // Called on the main process once per period with the (name, latest value) pairs of the
  // metrics recorded during it, in first-recorded order.
  virtual void log_metrics(Trainer& trainer,
                           const std::vector<std::pair<std::string, double>>& metrics) = 0;

 protected:
  // The period being logged: "epoch 3/8" or "evaluation"; its epoch (for an evaluation run,
  // the last epoch trained, 0 before any); whether it is an evaluation run; its wall time.
  const std::string& period() const { return period_; }
  int64_t epoch() const { return epoch_; }
  bool is_evaluation_run() const { return evaluation_run_; }
  double seconds() const;

 private:
  void open_period(Trainer& trainer, std::string period, int64_t epoch, bool evaluation_run);
  void close_period(Trainer& trainer);

  bool open_ = false;
  std::string period_;
  int64_t epoch_ = 0;
  int64_t last_train_epoch_ = 0;
  bool evaluation_run_ = false;
  std::chrono::steady_clock::time_point start_;
  std::map<std::string, size_t> counts_at_start_;  // values per metric when the period began
};

}  // namespace accel
