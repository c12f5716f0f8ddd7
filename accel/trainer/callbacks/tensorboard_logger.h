// TensorBoardLogger: every period's metrics as scalars in a TensorBoard event file
// (`tensorboard --logdir DIR` plots them), the epoch as the step; an evaluation run's metrics
// at the step of the last epoch trained. Each training run starts a new file in the directory,
// as PyTorch's SummaryWriter does, and each epoch's records are flushed to disk as they are
// written.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "accel/trainer/callbacks/epoch_metrics.h"

namespace accel {

class TensorBoardLogger : public EpochMetrics {
 public:
  explicit TensorBoardLogger(std::string log_dir);

  void on_training_run_start(Trainer& trainer) override;
  void log_metrics(Trainer& trainer,
                   const std::vector<std::pair<std::string, double>>& metrics) override;
  // The event file being written; empty before the first run.
  const std::string& file() const { return file_; }

 private:
  void open_file();
  void append(const std::string& event);

  std::string log_dir_;
  std::string file_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_{nullptr, &std::fclose};
};

}  // namespace accel
