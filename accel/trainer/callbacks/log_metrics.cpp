// LogMetrics: picks the train or the other metrics and hands their latest values on.
#include "accel/trainer/callbacks/log_metrics.h"

#include "accel/trainer/trainer.h"

namespace accel {

void LogMetrics::on_train_epoch_end(Trainer& trainer) { log_latest(trainer, true); }

void LogMetrics::on_eval_epoch_end(Trainer& trainer) { log_latest(trainer, false); }

void LogMetrics::log_metrics(Trainer& trainer,
                             const std::vector<std::pair<std::string, double>>& metrics) {
  for (const auto& [name, value] : metrics) trainer.print("\n{}: {}", name, value);
}

void LogMetrics::log_latest(Trainer& trainer, bool train_metrics) {
  if (!trainer.accelerator().is_main_process()) return;
  const RunHistory& history = trainer.run_history();
  std::vector<std::pair<std::string, double>> metrics;
  for (const std::string& name : history.get_metric_names()) {
    const bool is_train = name.find("train") != std::string::npos;
    if (is_train == train_metrics) metrics.emplace_back(name, history.get_latest_metric(name));
  }
  log_metrics(trainer, metrics);
}

}  // namespace accel
