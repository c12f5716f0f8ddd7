// LogMetrics: a period (an epoch or an evaluation run) opens when it starts, noting how many
// values each metric had; it closes when the next opens or the run ends, and the metrics that
// gained values in between are logged.
#include "accel/trainer/callbacks/log_metrics.h"

#include <fmt/format.h>

#include "accel/nn/print.h"
#include "accel/trainer/trainer.h"

namespace accel {

void LogMetrics::on_training_run_start(Trainer& trainer) {
  if (!trainer.accelerator().is_main_process()) return;
  const nn::ParameterCounts counts = nn::count_parameters(*trainer.model());
  trainer.print("training {}: {} parameters ({} trainable)", trainer.model()->name(),
                nn::grouped_thousands(counts.total), nn::grouped_thousands(counts.trainable));
}

void LogMetrics::on_train_epoch_start(Trainer& trainer) {
  open_period(trainer, fmt::format("epoch {}/{}", trainer.run_history().current_epoch(),
                                   trainer.run_config().num_epochs));
}

void LogMetrics::on_training_run_end(Trainer& trainer) { close_period(trainer); }

void LogMetrics::on_evaluation_run_start(Trainer& trainer) { open_period(trainer, "evaluation"); }

void LogMetrics::on_evaluation_run_end(Trainer& trainer) { close_period(trainer); }

double LogMetrics::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void LogMetrics::open_period(Trainer& trainer, std::string period) {
  close_period(trainer);
  open_ = true;
  period_ = std::move(period);
  start_ = std::chrono::steady_clock::now();
  counts_at_start_.clear();
  const RunHistory& history = trainer.run_history();
  for (const std::string& name : history.get_metric_names()) {
    counts_at_start_[name] = history.get_metric_values(name).size();
  }
}

void LogMetrics::close_period(Trainer& trainer) {
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

void LogMetrics::log_metrics(Trainer& trainer,
                             const std::vector<std::pair<std::string, double>>& metrics) {
  std::string line = period_;
  for (const auto& [name, value] : metrics) line += fmt::format("  {} {:.4g}", name, value);
  trainer.print("{}  {:.1f} s", line, seconds());
}

}  // namespace accel
