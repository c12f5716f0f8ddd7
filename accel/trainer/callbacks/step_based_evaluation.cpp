// StepBasedEvaluation: the Trainer counts updates (global_step); a step-end event sees the
// updates done before its batch, so each multiple of n is evaluated once, at the next batch.
#include "accel/trainer/callbacks/step_based_evaluation.h"

#include "accel/base/error.h"
#include "accel/trainer/trainer.h"

namespace accel {

StepBasedEvaluation::StepBasedEvaluation(int64_t eval_every_n_steps)
    : eval_every_n_steps_(eval_every_n_steps) {
  ACCEL_CHECK(eval_every_n_steps > 0, "StepBasedEvaluation",
              "expected eval_every_n_steps > 0, found {}", eval_every_n_steps);
}

void StepBasedEvaluation::on_training_run_start(Trainer& trainer) {
  ACCEL_CHECK(trainer.eval_dataloader() != nullptr, "StepBasedEvaluation",
              "expected train() to be given an eval_dataset, found none");
  last_step_ = trainer.global_step();
}

// An update that ended the previous epoch was followed by that epoch's own evaluation.
void StepBasedEvaluation::on_train_epoch_start(Trainer& trainer) {
  last_step_ = trainer.global_step();
}

void StepBasedEvaluation::on_train_step_end(Trainer& trainer, const BatchOutput&,
                                            const data::Example&, int64_t) {
  const int64_t step = trainer.global_step();
  if (step == last_step_ || step % eval_every_n_steps_ != 0) return;
  last_step_ = step;
  trainer.print("\nRunning evaluation after {} training steps", step);
  trainer.run_eval_epoch(/*intermediate=*/true);
  trainer.run_history().delete_metric("intermediate_eval_loss");
  trainer.print("\nResuming training...");
}

}  // namespace accel
