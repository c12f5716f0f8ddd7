// TerminateOnNaN: checks the loss value the Trainer read for its tracker (no second read from
// the device).
#include "accel/trainer/callbacks/terminate_on_nan.h"

#include <fmt/format.h>

#include <cmath>

#include "accel/trainer/trainer.h"

namespace accel {
namespace {

// "NaN", "+inf" or "-inf": which non-finite value `loss` is.
const char* non_finite_name(double loss) {
  if (std::isnan(loss)) return "NaN";
  return loss > 0 ? "+inf" : "-inf";
}

}  // namespace

void TerminateOnNaN::on_training_run_start(Trainer&) {
  triggered_ = false;
  reason_.clear();
}

void TerminateOnNaN::on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                                       int64_t step) {
  check(trainer, trainer.batch_loss_value(), "training", step + 1);
}

void TerminateOnNaN::on_eval_epoch_start(Trainer&) { eval_batches_ = 0; }

void TerminateOnNaN::on_eval_step_end(Trainer& trainer, const BatchOutput&, const data::Example&) {
  check(trainer, trainer.batch_loss_value(), "validation", ++eval_batches_);
}

void TerminateOnNaN::check(const Trainer& trainer, double loss, const char* phase, int64_t batch) {
  if (std::isfinite(loss)) return;
  triggered_ = true;
  const int64_t steps = trainer.global_step();
  reason_ = fmt::format("the loss was {} in {} batch {} of epoch {} (after {} optimizer step{})",
                        non_finite_name(loss), phase, batch, trainer.run_history().current_epoch(),
                        steps, steps == 1 ? "" : "s");
  throw StopTrainingError("Stopping training: " + reason_);
}

}  // namespace accel
