// JSON for LRSchedulerState, the form scheduler state takes in checkpoint files. Non-finite
// numbers (ReduceLROnPlateau's initial best metric is infinite) are written as the strings
// "Infinity", "-Infinity" and "NaN", which plain JSON numbers cannot hold.
#pragma once

#include <string>
#include <string_view>

#include "accel/optim/schedulers/lr_scheduler.h"

namespace accel::optim {

// {"last_epoch": int, "base_lrs": [...], "last_lr": [...], "values": {name: number},
//  "schedulers": [state, ...]}; numbers round-trip exactly.
std::string lr_scheduler_state_to_json(const LRSchedulerState& state);
// Throws accel::Error naming `where` (what the text is, e.g. a quoted path) and the offending
// field for malformed, incomplete or too deeply nested input.
LRSchedulerState lr_scheduler_state_from_json(std::string_view json,
                                              const std::string& where = "the scheduler state");

}  // namespace accel::optim
