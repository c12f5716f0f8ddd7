// The Trainer's default callbacks, in the original's order: MoveModulesToDevice, TerminateOnNaN,
// PrintProgress, ProgressBar (unless progress_bar is false) and LogMetrics.
#pragma once

#include <memory>
#include <vector>

#include "accel/trainer/callback.h"

namespace accel {

std::vector<std::shared_ptr<Callback>> get_default_callbacks(bool progress_bar = true);

}  // namespace accel
