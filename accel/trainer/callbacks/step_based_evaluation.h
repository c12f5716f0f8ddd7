// StepBasedEvaluation: runs an intermediate eval epoch every eval_every_n_steps optimizer
// updates in the middle of training epochs. The model is back in train mode afterwards (the
// original left it in eval mode).
#pragma once

#include <cstdint>

#include "accel/trainer/callback.h"

namespace accel {

class StepBasedEvaluation : public Callback {
 public:
  explicit StepBasedEvaluation(int64_t eval_every_n_steps);

  void on_training_run_start(Trainer& trainer) override;
  void on_train_epoch_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;

 private:
  int64_t eval_every_n_steps_;
  // The global step last evaluated at (or passed by an epoch's own evaluation).
  int64_t last_step_ = 0;
};

}  // namespace accel
