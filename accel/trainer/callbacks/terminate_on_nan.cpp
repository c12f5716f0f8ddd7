// TerminateOnNaN: one scalar read per batch (the Trainer reads the loss for its tracker anyway).
#include "accel/trainer/callbacks/terminate_on_nan.h"

#include <cmath>
#include <string>

namespace accel {

void TerminateOnNaN::on_training_run_start(Trainer&) { triggered_ = false; }

void TerminateOnNaN::on_train_step_end(Trainer&, const BatchOutput& output, const data::Example&,
                                       int64_t) {
  check(output, "training");
}

void TerminateOnNaN::on_eval_step_end(Trainer&, const BatchOutput& output, const data::Example&) {
  check(output, "validation");
}

void TerminateOnNaN::check(const BatchOutput& output, const char* phase) {
  if (std::isfinite(output.loss.detach().item<double>())) return;
  triggered_ = true;
  throw StopTrainingError(std::string("Stopping training due to NaN loss in ") + phase + " step");
}

}  // namespace accel
