// TrainerRunConfig: the immutable facts of one train() or evaluate() run, and the placeholder
// values a scheduler factory receives. Step counts are optimizer updates, counted the same
// on every process (each process steps once per update).
#pragma once

#include <cstdint>
#include <optional>

#include "accel/trainer/accelerator.h"
#include "accel/trainer/data_loader_kwargs.h"

namespace accel {

struct TrainerRunConfig {
  int64_t num_epochs = 0;
  int64_t train_per_device_batch_size = 0;
  DataLoaderKwargs train_dl_kwargs;
  int64_t eval_per_device_batch_size = 0;
  DataLoaderKwargs eval_dl_kwargs;
  int64_t gradient_accumulation_steps = 1;
  std::optional<double> gradient_clip_value;
  std::optional<double> gradient_clip_norm;
  int64_t train_total_batch_size = 0;  // per device × processes × accumulation steps
  int64_t eval_total_batch_size = 0;   // per device × processes
  // Optimizer updates per epoch: ceil(local batches / gradient_accumulation_steps).
  int64_t num_update_steps_per_epoch = 0;
  int64_t num_local_update_steps_per_epoch = 0;  // the same value, kept for the name
  std::optional<int64_t> max_num_train_steps;
  bool is_local_process_zero = true;
  bool is_world_process_zero = true;
  bool is_distributed = false;
  MixedPrecision mixed_precision = MixedPrecision::No;
  int num_processes = 1;
};

// pytorch-accelerated's scheduler placeholders (NUM_EPOCHS, ...), resolved: a factory does
// plain arithmetic on them.
struct TrainerPlaceholderValues {
  int64_t num_epochs = 0;
  int64_t num_update_steps_per_epoch = 0;
  int64_t per_process_num_update_steps_per_epoch = 0;
  int64_t train_dataloader_len = 0;
  int64_t eval_dataloader_len = 0;
};

}  // namespace accel
