// BatchOutput: what the Trainer's batch-loss hooks return for one batch (the Python
// original's dict with "loss", "model_outputs" and "batch_size").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "accel/core/tensor.h"

namespace accel {

struct BatchOutput {
  Tensor loss = {};           // a scalar
  Tensor model_outputs = {};  // may be undefined
  int64_t batch_size = 0;
  // For token-normalized losses (already divided by the items of the whole update across
  // processes): under several processes with gradient accumulation the Trainer multiplies
  // the loss by the process count, cancelling the average of the gradient all-reduce.
  std::optional<int64_t> num_items_in_batch = std::nullopt;
  std::map<std::string, Tensor> extras = {};  // anything else a hook wants callbacks to see
};

}  // namespace accel
