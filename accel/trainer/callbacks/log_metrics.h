// LogMetrics: one line per epoch with every metric recorded during it, on the main process:
//   epoch 3/8  train_loss_epoch 0.4123  eval_loss_epoch 0.3871  eval_accuracy 0.8602  11.2 s
// and one per evaluation run. A period's line is written once the next one starts (or the run
// ends), so a metric recorded by any callback at any event of the epoch is in its line,
// whatever the callbacks' order. It also names the model and its parameter count as training
// starts. Override log_metrics to send the metrics elsewhere (a file, an experiment tracker).
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accel/trainer/callback.h"

namespace accel {

class LogMetrics : public Callback {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void on_train_epoch_start(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;
  void on_evaluation_run_start(Trainer& trainer) override;
  void on_evaluation_run_end(Trainer& trainer) override;

  // Called on the main process once per epoch or evaluation run with the (name, latest value)
  // pairs of the metrics recorded during it, in first-recorded order. period() and seconds()
  // say which period it was.
  virtual void log_metrics(Trainer& trainer,
                           const std::vector<std::pair<std::string, double>>& metrics);

 protected:
  // "epoch 3/8" or "evaluation", and its wall time so far in seconds.
  const std::string& period() const { return period_; }
  double seconds() const;

 private:
  void open_period(Trainer& trainer, std::string period);
  void close_period(Trainer& trainer);

  bool open_ = false;
  std::string period_;
  std::chrono::steady_clock::time_point start_;
  std::map<std::string, size_t> counts_at_start_;  // values per metric when the period began
};

}  // namespace accel
