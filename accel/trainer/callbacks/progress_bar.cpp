// ProgressBar: opens, advances and closes the two displays; an intermediate evaluation inside a
// train epoch first ends the train bar's line.
#include "accel/trainer/callbacks/progress_bar.h"

#include <fmt/format.h>

#include <algorithm>

#include "accel/trainer/callbacks/limit_batches.h"
#include "accel/trainer/callbacks/limit_eval_steps.h"
#include "accel/trainer/trainer.h"

namespace accel {
namespace {

// `batches` capped by a registered LimitBatches.
int64_t limited(Trainer& trainer, int64_t batches) {
  if (auto limit = trainer.callback_handler().get_callback<LimitBatches>()) {
    batches = std::min(batches, limit->num_batches());
  }
  return batches;
}

void close(std::optional<ProgressDisplay>& bar) {
  if (bar) bar->close();
  bar.reset();
}

}  // namespace

ProgressBar::ProgressBar(bool when_not_a_terminal, std::FILE* out)
    : when_not_a_terminal_(when_not_a_terminal), out_(out), mode_(ProgressDisplay::mode_for(out)) {}

std::string ProgressBar::train_postfix() const {
  if (samples_ == 0) return {};
  const double seconds = train_bar_ ? train_bar_->elapsed_seconds() : 0;
  const std::string rate = seconds > 0 ? fmt::format(", {:.0f} samples/s", samples_ / seconds) : "";
  return fmt::format("loss {:.4g}{}", loss_sum_ / samples_, rate);
}

void ProgressBar::on_train_epoch_start(Trainer& trainer) {
  close(train_bar_);
  loss_sum_ = 0;
  samples_ = 0;
  if (!shown() || !trainer.accelerator().is_local_main_process()) return;
  train_bar_.emplace("train", limited(trainer, trainer.train_dataloader()->size()),
                     trainer.epoch_step(), mode_, out_, ProgressDisplay::width_for(out_));
}

void ProgressBar::on_train_step_end(Trainer& trainer, const BatchOutput& output,
                                    const data::Example&, int64_t) {
  if (!train_bar_) return;
  const auto batch_size = static_cast<double>(output.batch_size);
  loss_sum_ += trainer.batch_loss_value() * batch_size;
  samples_ += batch_size;
  train_bar_->update([this] { return train_postfix(); });
}

void ProgressBar::on_train_epoch_end(Trainer&) {
  if (train_bar_) train_bar_->close(train_postfix());
  train_bar_.reset();
}

void ProgressBar::on_eval_epoch_start(Trainer& trainer) {
  close(eval_bar_);
  if (!shown() || !trainer.accelerator().is_local_main_process()) return;
  if (train_bar_) train_bar_->break_line();
  int64_t total = limited(trainer, trainer.eval_dataloader()->size());
  if (auto limit_eval = trainer.callback_handler().get_callback<LimitEvalSteps>()) {
    if (auto steps = limit_eval->steps_per_process(trainer)) total = std::min(total, *steps);
  }
  eval_bar_.emplace("eval", total, 0, mode_, out_, ProgressDisplay::width_for(out_));
}

void ProgressBar::on_eval_step_end(Trainer&, const BatchOutput&, const data::Example&) {
  if (eval_bar_) eval_bar_->update();
}

void ProgressBar::on_eval_epoch_end(Trainer&) { close(eval_bar_); }

}  // namespace accel
