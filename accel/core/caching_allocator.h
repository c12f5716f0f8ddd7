// CachingAllocator: the logic of a caching device allocator in the spirit of PyTorch's CUDA
// caching allocator, written against a small DeviceMemory interface so that it is tested on
// any machine with a fake device (tests/core/caching_allocator_test.cpp) and runs on a GPU
// over cudaMalloc (core/cuda/cuda_allocator.cpp) or over pinned host memory.
//
// - Sizes round up to 512 bytes. Requests up to 1 MiB are carved from 2 MiB segments (the
//   small pool); below 10 MiB from 20 MiB segments; larger ones get a segment of their size
//   rounded to 2 MiB (these two: the large pool).
// - A request takes the best-fitting free block of its pool that was allocated on the same
//   stream (a segment, and every block carved from it, belongs to one stream), splitting off
//   the remainder when it is large enough to be useful (>= 512 B in the small pool, > 1 MiB in
//   the large one); freed blocks merge with free neighbours of their segment.
// - record_stream(ptr, s): the block is not reused after its free until the work `s` had
//   queued by then has completed (an event is recorded on each such stream at free time;
//   completed events are collected at every allocate and empty_cache).
// - Out of memory: free every unused cached segment and retry; then throw accel::Error naming
//   the request and the allocator's statistics. Nothing leaks on either path.
// - With the cache off (allocator_cache_enabled() false: sanitizer builds, tests) every
//   allocation gets a segment of its own rounded size, returned to the device when freed, so
//   tools watching the device memory see every use after free.
// - Statistics: allocated = rounded sizes of the blocks in use; reserved = segment bytes held;
//   cached = free bytes in the pools. reserved >= allocated + cached: a large-pool block keeps
//   a remainder too small to split, and freed blocks awaiting events are in neither.
// - Thread-safe: one mutex. Obtaining and releasing segments (cudaMalloc, cudaFree: they can
//   block) happen outside it; events are recorded under it, keeping each stream's events in
//   the order they complete.
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
  // An event marking the work queued on `stream` so far, or nullptr when that work is already
  // complete (a CPU stream: its work runs eagerly).
  virtual void* record_event(const Stream& stream) = 0;
  // Whether the work an event marks has completed.
  virtual bool event_completed(void* event) = 0;
  virtual void destroy_event(void* event) = 0;
};

class CachingAllocator final : public Allocator {
 public:
  CachingAllocator(Device device, std::unique_ptr<DeviceMemory> memory);
  // Releases every fully free segment. Blocks still in use, or freed but awaiting their events,
  // are left alone: work may still use them (a process-wide allocator is destroyed at exit,
  // when the OS reclaims them anyway).
  ~CachingAllocator() override;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  void* allocate(size_t nbytes, const Stream& stream) override;
  // The block knows its size and stream: `nbytes` and `stream` are not needed.
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
