// LimitBatches: counts the batches of each epoch and asks the trainer to end it at the limit.
#include "accel/trainer/callbacks/limit_batches.h"

#include "accel/base/error.h"
#include "accel/trainer/trainer.h"

namespace accel {

LimitBatches::LimitBatches(int64_t num_batches) : num_batches_(num_batches) {
  ACCEL_CHECK(num_batches > 0, "LimitBatches", "expected num_batches > 0, found {}", num_batches);
}

void LimitBatches::on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                                     int64_t step) {
  if (step + 1 >= num_batches_) trainer.end_epoch_early();
}

void LimitBatches::on_eval_epoch_start(Trainer&) { eval_steps_ = 0; }

void LimitBatches::on_eval_step_end(Trainer& trainer, const BatchOutput&, const data::Example&) {
  if (++eval_steps_ >= num_batches_) trainer.end_epoch_early();
}

}  // namespace accel
