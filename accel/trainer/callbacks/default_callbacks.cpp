// get_default_callbacks: fresh instances each call, since callbacks keep per-run state.
#include "accel/trainer/callbacks/default_callbacks.h"

#include "accel/trainer/callbacks/log_metrics.h"
#include "accel/trainer/callbacks/move_modules_to_device.h"
#include "accel/trainer/callbacks/print_progress.h"
#include "accel/trainer/callbacks/progress_bar.h"
#include "accel/trainer/callbacks/terminate_on_nan.h"

namespace accel {

std::vector<std::shared_ptr<Callback>> get_default_callbacks(bool progress_bar) {
  std::vector<std::shared_ptr<Callback>> callbacks = {std::make_shared<MoveModulesToDevice>(),
                                                      std::make_shared<TerminateOnNaN>(),
                                                      std::make_shared<PrintProgress>()};
  if (progress_bar) callbacks.push_back(std::make_shared<ProgressBar>());
  callbacks.push_back(std::make_shared<LogMetrics>());
  return callbacks;
}

}  // namespace accel
