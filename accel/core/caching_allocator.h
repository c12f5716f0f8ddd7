// CachingAllocator: the logic of a caching device allocator in the spirit of PyTorch's CUDA
// caching allocator, written against a small DeviceMemory interface so that it is tested on
// any machine with a fake device (tests/core/caching_allocator_test.cpp) and runs on a GPU
// over cudaMalloc (core/cuda/cuda_allocator.cpp) or over pinned host memory.
//
// - Sizes round up to 512 bytes. Requests up to 1 MiB are carved from 2 MiB segments (the
//   small pool); up to 10 MiB from 20 MiB segments; larger ones get a segment of their size
//   rounded to 2 MiB (the large pool).
// - A request takes the best-fitting free block of its pool that was last used on the same
//   stream, splitting off the remainder when it is large enough to be useful; freed blocks
//   merge with free neighbours of their segment.
// - record_stream(ptr, s): the block is not reused after its free until the work `s` had
//   queued by then has completed (an event is recorded on each such stream at free time).
// - Out of memory: free every unused cached segment and retry; then throw accel::Error naming
//   the request and the allocator's statistics. Nothing leaks on either path.
// - Thread-safe: one mutex; device calls that can block are made without holding it where
//   possible.
#pragma once

#include <cstddef>
#include <memory>

#include "accel/core/allocator.h"

namespace accel {

// The device operations the caching logic needs. Implementations are thread-safe.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // `bytes` of device memory (aligned to at least 256 bytes), or nullptr when the device is out
  // of memory; any other failure throws accel::Error.
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* ptr, size_t bytes) = 0;
  // An event marking the work queued on `stream` so far.
  virtual void* record_event(const Stream& stream) = 0;
  // Whether the work an event marks has completed.
  virtual bool event_completed(void* event) = 0;
  virtual void destroy_event(void* event) = 0;
};

class CachingAllocator final : public Allocator {
 public:
  CachingAllocator(Device device, std::unique_ptr<DeviceMemory> memory);
  ~CachingAllocator() override;

  void* allocate(size_t nbytes, const Stream& stream) override;
  void deallocate(void* ptr, size_t nbytes, const Stream& stream) override;
  void record_stream(void* ptr, const Stream& stream) override;
  Device device() const override;
  AllocatorStats stats() const override;
  void reset_peak_stats() override;
  // Returns every fully free segment to the device (waiting for none: segments with deferred
  // frees stay).
  void empty_cache() override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace accel
