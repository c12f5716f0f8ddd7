// DataLoaderOptions, LibTorch style: DataLoaderOptions().batch_size(32).shuffle(true)
// .num_workers(2); each option reads back through its name without argument.
#pragma once

#include <memory>

#include "accel/core/arg.h"
#include "accel/data/collate.h"
#include "accel/data/sampler.h"

namespace accel::data {

class DataLoaderOptions {
 public:
  DataLoaderOptions() = default;
  explicit DataLoaderOptions(int64_t batch_size) : batch_size_(batch_size) {}

  ACCEL_ARG(int64_t, batch_size) = 1;
  // A RandomSampler(size, seed) reshuffled each epoch; excludes `sampler`.
  ACCEL_ARG(bool, shuffle) = false;
  // The epoch order (a DistributedSampler, say); default sequential or shuffled.
  ACCEL_ARG(std::shared_ptr<Sampler>, sampler);
  // Drop the last batch when it is short.
  ACCEL_ARG(bool, drop_last) = false;
  // Worker threads loading batches ahead, in [0, 1024]; 0 loads on the iterating thread.
  // An epoch starts no more threads than it has batches left.
  ACCEL_ARG(int, num_workers) = 0;
  // Batches each worker may load ahead of the consumer (>= 1 when there are workers); the
  // room is never more than the batches the epoch has left.
  ACCEL_ARG(int, prefetch_factor) = 2;
  // Turns samples into a batch; unset means default_collate, or the dataset's get_batch.
  ACCEL_ARG(CollateFn, collate_fn);
  // Page-locked batches for asynchronous copies to a GPU; no effect on CPU-only builds.
  ACCEL_ARG(bool, pin_memory) = false;
  ACCEL_ARG(uint64_t, seed) = kDefaultSeed;
};

}  // namespace accel::data
