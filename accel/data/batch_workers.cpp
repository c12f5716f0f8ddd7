// BatchWorkers: a claim counter hands batches to whichever worker is free; finished
// batches wait in a ring of `capacity` slots until the consumer reaches them, so the
// consumer sees batch order and workers never run more than `capacity` ahead.
#include "accel/data/batch_workers.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::data {

BatchWorkers::BatchWorkers(LoadBatch load, int64_t first, int64_t last, int num_workers,
                           int64_t capacity)
    : load_(std::move(load)),
      last_(last),
      capacity_(capacity),
      slots_(capacity),
      next_claim_(first),
      next_yield_(first) {
  ACCEL_CHECK(num_workers >= 1 && capacity >= 1, "BatchWorkers",
              "expected num_workers >= 1 and capacity >= 1, found {} and {}", num_workers,
              capacity);
  threads_.reserve(num_workers);
  try {
    for (int w = 0; w < num_workers; ++w) threads_.emplace_back([this] { work(); });
  } catch (...) {
    stop();  // the destructor will not run: join the threads that did start
    throw;
  }
}

BatchWorkers::~BatchWorkers() { stop(); }

void BatchWorkers::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void BatchWorkers::work() {
  SerialOpsGuard serial;
  NoGradGuard no_grad;
  std::unique_lock lock(mutex_);
  while (true) {
    room_.wait(lock, [&] {
      return stopping_ || next_claim_ >= last_ || next_claim_ < next_yield_ + capacity_;
    });
    if (stopping_ || next_claim_ >= last_) return;
    const int64_t batch = next_claim_++;
    lock.unlock();
    Slot loaded;
    try {
      loaded.batch = load_(batch);
    } catch (...) {
      loaded.error = std::current_exception();
    }
    loaded.ready = true;
    lock.lock();
    slots_[batch % capacity_] = std::move(loaded);
    ready_.notify_one();
  }
}

Example BatchWorkers::next() {
  std::unique_lock lock(mutex_);
  ACCEL_CHECK(next_yield_ < last_, "BatchWorkers.next", "expected a batch before {}, found {}",
              last_, next_yield_);
  Slot& slot = slots_[next_yield_ % capacity_];
  ready_.wait(lock, [&] { return slot.ready; });
  Slot taken = std::move(slot);
  slot = Slot();
  ++next_yield_;
  lock.unlock();
  room_.notify_all();
  if (taken.error) std::rethrow_exception(taken.error);
  return std::move(taken.batch);
}

}  // namespace accel::data
