// TerminateOnNaN: stops the training run (StopTrainingError) as soon as a train or eval batch's
// loss is NaN or infinite, naming which of NaN, +inf and -inf it saw and where. Unlike the
// original it does not exit the process afterwards: a library leaves that to its caller, who
// can ask triggered() and reason().
#pragma once

#include <string>

#include "accel/trainer/callback.h"

namespace accel {

class TerminateOnNaN : public Callback {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_eval_epoch_start(Trainer& trainer) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  // Whether the last training run was stopped by a non-finite loss.
  bool triggered() const { return triggered_; }
  // Why it was stopped, e.g. "the loss was +inf in training batch 3 of epoch 2 (after 41
  // optimizer steps)"; empty when it was not.
  const std::string& reason() const { return reason_; }

 private:
  // Stops training when `loss` is not finite; `batch` counts the phase's batches from 1.
  void check(const Trainer& trainer, double loss, const char* phase, int64_t batch);

  bool triggered_ = false;
  std::string reason_;
  int64_t eval_batches_ = 0;  // of the evaluation in progress
};

}  // namespace accel
