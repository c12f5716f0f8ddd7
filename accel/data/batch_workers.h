// BatchWorkers: threads that load a range of batches ahead of one consumer and hand them
// over in batch order, whatever order they finish in. At most `capacity` batches are
// loaded beyond the one the consumer waits for, bounding memory.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

class BatchWorkers {
 public:
  using LoadBatch = std::function<Example(int64_t batch)>;

  // Loads batches [first, last) with `num_workers` threads. Workers run ops single-threaded
  // and without autograd recording.
  BatchWorkers(LoadBatch load, int64_t first, int64_t last, int num_workers, int64_t capacity);
  // Stops the workers (unfinished loads complete, nothing new starts) and joins them.
  ~BatchWorkers();
  BatchWorkers(const BatchWorkers&) = delete;
  BatchWorkers& operator=(const BatchWorkers&) = delete;

  // The next batch in order, waiting for it if needed; rethrows the exception its load
  // raised. Call at most last - first times.
  Example next();

 private:
  struct Slot {
    bool ready = false;
    Example batch;
    std::exception_ptr error;
  };
  void work();
  void stop();

  LoadBatch load_;
  int64_t last_;
  int64_t capacity_;
  std::mutex mutex_;
  std::condition_variable room_;   // workers wait here for a batch to claim
  std::condition_variable ready_;  // the consumer waits here for its batch
  std::vector<Slot> slots_;        // batch b lives in slots_[b % capacity_]
  int64_t next_claim_;             // the next batch a worker will load
  int64_t next_yield_;             // the next batch the consumer takes
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace accel::data
