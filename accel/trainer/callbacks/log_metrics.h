// LogMetrics: one line per epoch with every metric recorded during it, on the main process:
//   epoch 3/8  train_loss_epoch 0.4123  eval_loss_epoch 0.3871  eval_accuracy 0.8602  11.2 s
// and one per evaluation run (EpochMetrics decides what belongs to a period). It also names the
// model and its parameter count as training starts. Override log_metrics to send the metrics
// elsewhere (CSVLogger and TensorBoardLogger write them to files).
#pragma once

#include "accel/trainer/callbacks/epoch_metrics.h"

namespace accel {

class LogMetrics : public EpochMetrics {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void log_metrics(Trainer& trainer,
                   const std::vector<std::pair<std::string, double>>& metrics) override;
};

}  // namespace accel
