// TerminateOnNaN: stops the training run (StopTrainingError) as soon as a train or eval batch's
// loss is NaN or infinite, naming which of NaN, +inf and -inf it saw and where. Unlike the
// original it does not exit the process afterwards: a library leaves that to its caller, who
// can ask triggered() and reason(). With several processes, all stop together: after each
// training step they learn whether any saw a non-finite loss, and after an evaluation (whose
// processes may run different numbers of batches) whether any did during it.
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
  void on_eval_epoch_end(Trainer& trainer) override;
  // Whether the last training run was stopped by a non-finite loss.
  bool triggered() const { return triggered_; }
  // Why it was stopped, e.g. "the loss was +inf in training batch 3 of epoch 2 (after 41
  // optimizer steps)"; empty when it was not.
  const std::string& reason() const { return reason_; }

 private:
  // Notes the first non-finite `loss`; `batch` counts the phase's batches from 1.
  void check(const Trainer& trainer, double loss, const char* phase, int64_t batch);
  // Stops training when this process, or with several processes any of them, saw one.
  void stop_if_seen(const Trainer& trainer);

  bool triggered_ = false;
  std::string seen_;  // what check() noted, until stop_if_seen()
  std::string reason_;
  int64_t eval_batches_ = 0;  // of the evaluation in progress
};

}  // namespace accel
