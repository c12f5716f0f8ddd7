// TerminateOnNaN: stops the training run (StopTrainingError) as soon as a train or eval batch's
// loss is NaN or infinite. Unlike the original it does not exit the process afterwards: a
// library leaves that to its caller, who can ask triggered().
#pragma once

#include "accel/trainer/callback.h"

namespace accel {

class TerminateOnNaN : public Callback {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  // Whether the last training run was stopped by a non-finite loss.
  bool triggered() const { return triggered_; }

 private:
  void check(double loss, const char* phase);

  bool triggered_ = false;
};

}  // namespace accel
