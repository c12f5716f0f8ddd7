// LimitBatches: ends every train and eval epoch after num_batches batches, for smoke runs (the
// Trainer adds one first when PT_ACC_LIMIT_BATCHES or ACCEL_LIMIT_BATCHES is set).
#pragma once

#include <cstdint>

#include "accel/trainer/callback.h"

namespace accel {

class LimitBatches : public Callback {
 public:
  explicit LimitBatches(int64_t num_batches);

  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_eval_epoch_start(Trainer& trainer) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  int64_t num_batches() const { return num_batches_; }

 private:
  int64_t num_batches_;
  int64_t eval_steps_ = 0;
};

}  // namespace accel
