// TerminateOnNaN: checks the loss value the Trainer read for its tracker (no second read from
// the device).
#include "accel/trainer/callbacks/terminate_on_nan.h"

#include <cmath>
#include <string>

#include "accel/trainer/trainer.h"

namespace accel {

void TerminateOnNaN::on_training_run_start(Trainer&) { triggered_ = false; }

void TerminateOnNaN::on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                                       int64_t) {
  check(trainer.batch_loss_value(), "training");
}

void TerminateOnNaN::on_eval_step_end(Trainer& trainer, const BatchOutput&, const data::Example&) {
  check(trainer.batch_loss_value(), "validation");
}

void TerminateOnNaN::check(double loss, const char* phase) {
  if (std::isfinite(loss)) return;
  triggered_ = true;
  throw StopTrainingError(std::string("Stopping training due to NaN loss in ") + phase + " step");
}

}  // namespace accel
