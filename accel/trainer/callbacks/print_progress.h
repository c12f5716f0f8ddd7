// PrintProgress: one line when a training or evaluation run starts and ends, and at the start of
// each epoch and eval epoch, so plain logs show where a run is.
#pragma once

#include "accel/trainer/callback.h"

namespace accel {

class PrintProgress : public Callback {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void on_train_epoch_start(Trainer& trainer) override;
  void on_eval_epoch_start(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;
  void on_evaluation_run_start(Trainer& trainer) override;
  void on_evaluation_run_end(Trainer& trainer) override;
};

}  // namespace accel
