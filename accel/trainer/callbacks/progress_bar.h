// ProgressBar: a ProgressDisplay for every train and eval epoch on the local main process, on
// stderr, fitted to the terminal's width, the train bar showing the epoch's running loss and
// samples per second. When stderr is not a terminal there are no bars (the epoch lines of
// LogMetrics suffice) unless asked for, and then they are periodic plain lines. Totals account
// for LimitBatches and LimitEvalSteps when those are registered.
#pragma once

#include <cstdio>
#include <optional>

#include "accel/trainer/callback.h"
#include "accel/trainer/callbacks/progress_display.h"

namespace accel {

class ProgressBar : public Callback {
 public:
  // `when_not_a_terminal`: plain progress lines when `out` is a file or pipe.
  explicit ProgressBar(bool when_not_a_terminal = false, std::FILE* out = stderr);

  void on_train_epoch_start(Trainer& trainer) override;
  void on_train_step_end(Trainer& trainer, const BatchOutput& output, const data::Example& batch,
                         int64_t step) override;
  void on_train_epoch_end(Trainer& trainer) override;
  void on_eval_epoch_start(Trainer& trainer) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  void on_eval_epoch_end(Trainer& trainer) override;

 private:
  // Whether bars are shown at all, and how.
  bool shown() const { return mode_ == ProgressDisplay::Mode::Live || when_not_a_terminal_; }
  // "loss 0.4123, 2,345 samples/s" for the train bar.
  std::string train_postfix() const;

  bool when_not_a_terminal_;
  std::FILE* out_;
  ProgressDisplay::Mode mode_;
  std::optional<ProgressDisplay> train_bar_;
  std::optional<ProgressDisplay> eval_bar_;
  // The train epoch's running loss (a mean over its samples) and sample count.
  double loss_sum_ = 0;
  double samples_ = 0;
};

}  // namespace accel
