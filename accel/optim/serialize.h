// Optimizer state in a file, for checkpoints: one safetensors file whose tensors are the
// per-parameter state ("state.<param index>.<key>") and whose metadata holds the optimizer's
// kind and its parameter groups (parameter indices, every option, initial_lr) as JSON.
#pragma once

#include <string>

#include "accel/optim/optimizer.h"

namespace accel::optim {

// Writes atomically: an error midway (or a crash) leaves any previous file at `path` intact.
void save_optimizer_state(const OptimizerStateDict& state, const std::string& path);
// Reads a file written by save_optimizer_state; a malformed file raises accel::Error naming it.
OptimizerStateDict load_optimizer_state(const std::string& path);

// optimizer.state_dict() to `path`, as torch::save(optimizer, path).
void save(const Optimizer& optimizer, const std::string& path);
// Restores `optimizer` from `path`, as torch::load(optimizer, path). The file must come from an
// optimizer of the same kind with the same groups and parameter shapes; otherwise accel::Error
// says what differs and the optimizer is left unchanged.
void load(Optimizer& optimizer, const std::string& path);
// The error load() would raise for `state`, read from `path`, without changing `optimizer`.
void check_optimizer_state(const Optimizer& optimizer, const OptimizerStateDict& state,
                           const std::string& path);

}  // namespace accel::optim
