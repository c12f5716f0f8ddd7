// EpochMetrics: a period opens when it starts, noting how many values each metric had; it
// closes when the next opens or the run ends, and the metrics that gained values in between
// are handed to log_metrics.
#include "accel/trainer/callbacks/epoch_metrics.h"

#include <fmt/format.h>

#include "accel/trainer/trainer.h"

namespace accel {

void EpochMetrics::on_train_epoch_start(Trainer& trainer) {
  const int64_t epoch = trainer.run_history().current_epoch();
  open_period(trainer, fmt::format("epoch {}/{}", epoch, trainer.run_config().num_epochs), epoch,
              false);
  last_train_epoch_ = epoch;
}

void EpochMetrics::on_training_run_end(Trainer& trainer) { close_period(trainer); }

void EpochMetrics::on_evaluation_run_start(Trainer& trainer) {
  // An evaluation run restarts the run history, so the epoch is the one this callback saw last.
  open_period(trainer, "evaluation", last_train_epoch_, true);
}

void EpochMetrics::on_evaluation_run_end(Trainer& trainer) { close_period(trainer); }

double EpochMetrics::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void EpochMetrics::open_period(Trainer& trainer, std::string period, int64_t epoch,
                               bool evaluation_run) {
  close_period(trainer);
  open_ = true;
  period_ = std::move(period);
  epoch_ = epoch;
  evaluation_run_ = evaluation_run;
  start_ = std::chrono::steady_clock::now();
  counts_at_start_.clear();
  const RunHistory& history = trainer.run_history();
  for (const std::string& name : history.get_metric_names()) {
    counts_at_start_[name] = history.get_metric_values(name).size();
  }
}

void EpochMetrics::close_period(Trainer& trainer) {
  if (!open_) return;
  open_ = false;
  if (!trainer.accelerator().is_main_process()) return;
  const RunHistory& history = trainer.run_history();
  std::vector<std::pair<std::string, double>> metrics;
  for (const std::string& name : history.get_metric_names()) {
    const auto before = counts_at_start_.find(name);
    const size_t had = before == counts_at_start_.end() ? 0 : before->second;
    if (history.get_metric_values(name).size() > had) {
      metrics.emplace_back(name, history.get_latest_metric(name));
    }
  }
  log_metrics(trainer, metrics);
}

}  // namespace accel
