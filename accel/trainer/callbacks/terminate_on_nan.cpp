// TerminateOnNaN: checks the loss value the Trainer read for its tracker (no second read from
// the device).
#include "accel/trainer/callbacks/terminate_on_nan.h"

#include <fmt/format.h>

#include <cmath>

#include "accel/core/factories.h"
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
  seen_.clear();
  reason_.clear();
}

void TerminateOnNaN::on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                                       int64_t step) {
  check(trainer, trainer.batch_loss_value(), "training", step + 1);
  stop_if_seen(trainer);
}

void TerminateOnNaN::on_eval_epoch_start(Trainer&) { eval_batches_ = 0; }

void TerminateOnNaN::on_eval_step_end(Trainer& trainer, const BatchOutput&, const data::Example&) {
  check(trainer, trainer.batch_loss_value(), "validation", ++eval_batches_);
  if (!trainer.accelerator().is_distributed()) stop_if_seen(trainer);
}

void TerminateOnNaN::on_eval_epoch_end(Trainer& trainer) { stop_if_seen(trainer); }

void TerminateOnNaN::check(const Trainer& trainer, double loss, const char* phase, int64_t batch) {
  if (std::isfinite(loss) || !seen_.empty()) return;
  const int64_t steps = trainer.global_step();
  seen_ = fmt::format("the loss was {} in {} batch {} of epoch {} (after {} optimizer step{})",
                      non_finite_name(loss), phase, batch, trainer.run_history().current_epoch(),
                      steps, steps == 1 ? "" : "s");
}

void TerminateOnNaN::stop_if_seen(const Trainer& trainer) {
  bool seen = !seen_.empty();
  const Accelerator& accelerator = trainer.accelerator();
  if (accelerator.is_distributed()) {
    const Tensor anywhere =
        accelerator.reduce(tensor({int64_t{seen ? 1 : 0}}), distributed::ReduceOp::Max);
    seen = anywhere.item<int64_t>() != 0;
  }
  if (!seen) return;
  triggered_ = true;
  reason_ = seen_.empty() ? "another process's loss was not finite" : seen_;
  throw StopTrainingError("Stopping training: " + reason_);
}

}  // namespace accel
