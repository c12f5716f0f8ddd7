// LogMetrics: the model's parameter count, then a period's metrics on one line.
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

void LogMetrics::log_metrics(Trainer& trainer,
                             const std::vector<std::pair<std::string, double>>& metrics) {
  std::string line = period();
  for (const auto& [name, value] : metrics) line += fmt::format("  {} {:.4g}", name, value);
  trainer.print("{}  {:.1f} s", line, seconds());
}

}  // namespace accel
