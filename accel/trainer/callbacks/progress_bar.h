// ProgressBar: a ProgressDisplay for every train and eval epoch on the local main process, live
// on a terminal and as periodic plain lines otherwise. Totals account for LimitBatches and
// LimitEvalSteps when those are registered.
#pragma once

#include <optional>

#include "accel/trainer/callback.h"
#include "accel/trainer/callbacks/progress_display.h"

namespace accel {

class ProgressBar : public Callback {
 public:
  void on_train_epoch_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_train_epoch_end(Trainer& trainer) override;
  void on_eval_epoch_start(Trainer& trainer) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  void on_eval_epoch_end(Trainer& trainer) override;

 private:
  std::optional<ProgressDisplay> train_bar_;
  std::optional<ProgressDisplay> eval_bar_;
};

}  // namespace accel
