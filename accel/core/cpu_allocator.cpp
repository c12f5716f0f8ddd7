// The caching CPU allocator: 64-byte aligned blocks, kept on per-size free lists when freed
// so a training step that allocates the same shapes every iteration reuses warm pages.
// Sizes are rounded (to 512 B below 1 MiB, 64 KiB above) so near-equal requests share lists.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "accel/base/error.h"
#include "accel/core/allocator.h"
#include "accel/core/cuda.h"

namespace accel {

namespace {

constexpr size_t kAlignment = 64;
// Freed memory beyond this is returned to the system rather than cached.
constexpr int64_t kMaxCachedBytes = int64_t{4} << 30;

bool cache_enabled_from_environment() {
#ifdef ACCEL_ALLOCATOR_BYPASS
  return false;
#else
  const char* env = std::getenv("ACCEL_ALLOCATOR_BYPASS");
  return !(env != nullptr && env[0] == '1');
#endif
}

std::atomic<bool> cache_enabled{cache_enabled_from_environment()};

constexpr size_t kSmallQuantum = 512, kLargeQuantum = size_t{1} << 16;
constexpr size_t kSmallLimit = size_t{1} << 20;

size_t rounded_size(size_t nbytes) {
  const size_t quantum = nbytes < kSmallLimit ? kSmallQuantum : kLargeQuantum;
  return (nbytes + quantum - 1) & ~(quantum - 1);  // a power of two: no division
}

class CachingHostAllocator final : public Allocator {
 public:
  ~CachingHostAllocator() override { empty_cache(); }

  void* allocate(size_t nbytes, const Stream&) override {
    if (nbytes == 0) return nullptr;
    const size_t size = rounded_size(nbytes);
    void* ptr = nullptr;
    {
      std::lock_guard lock(mutex_);
      stats_.num_allocations++;
      if (std::vector<void*>& blocks = free_list(size); !blocks.empty()) {
        ptr = blocks.back();
        blocks.pop_back();
        stats_.cached_bytes -= static_cast<int64_t>(size);
        stats_.num_cache_hits++;
      } else {
        // Counted before the system call, outside the lock; undone if it fails.
        stats_.num_system_allocations++;
        stats_.reserved_bytes += static_cast<int64_t>(size);
      }
      note_allocated(size);
    }
    if (ptr == nullptr) {
      ptr = std::aligned_alloc(kAlignment, size);
      if (ptr == nullptr) {
        std::lock_guard lock(mutex_);
        stats_.allocated_bytes -= static_cast<int64_t>(size);
        stats_.reserved_bytes -= static_cast<int64_t>(size);
        stats_.num_system_allocations--;
        fail("allocate", "out of CPU memory allocating {} bytes ({} in use)", nbytes,
             stats_.allocated_bytes);
      }
    }
    return ptr;
  }

  void deallocate(void* ptr, size_t nbytes, const Stream&) override {
    if (ptr == nullptr) return;
    const size_t size = rounded_size(nbytes);
    {
      std::lock_guard lock(mutex_);
      stats_.allocated_bytes -= static_cast<int64_t>(size);
      if (cache_enabled.load(std::memory_order_relaxed) &&
          stats_.cached_bytes + static_cast<int64_t>(size) <= kMaxCachedBytes) {
        free_list(size).push_back(ptr);
        stats_.cached_bytes += static_cast<int64_t>(size);
        return;
      }
      stats_.reserved_bytes -= static_cast<int64_t>(size);
      stats_.num_system_frees++;
    }
    std::free(ptr);
  }

  Device device() const override { return Device(kCPU); }

  AllocatorStats stats() const override {
    std::lock_guard lock(mutex_);
    return stats_;
  }

  void reset_peak_stats() override {
    std::lock_guard lock(mutex_);
    stats_.peak_allocated_bytes = stats_.allocated_bytes;
  }

  void empty_cache() override {
    std::lock_guard lock(mutex_);
    const auto release = [&](std::vector<void*>& blocks) {
      for (void* p : blocks) std::free(p);
      stats_.num_system_frees += static_cast<int64_t>(blocks.size());
      blocks.clear();
    };
    for (std::vector<void*>& blocks : small_free_lists_) release(blocks);
    for (auto& [size, blocks] : large_free_lists_) release(blocks);
    large_free_lists_.clear();
    stats_.reserved_bytes -= stats_.cached_bytes;
    stats_.cached_bytes = 0;
  }

 private:
  void note_allocated(size_t size) {
    stats_.allocated_bytes += static_cast<int64_t>(size);
    stats_.peak_allocated_bytes = std::max(stats_.peak_allocated_bytes, stats_.allocated_bytes);
  }

  // The free blocks of one rounded size (callers hold the mutex).
  std::vector<void*>& free_list(size_t size) {
    if (size < kSmallLimit) return small_free_lists_[size / kSmallQuantum - 1];
    return large_free_lists_[size];
  }

  mutable std::mutex mutex_;
  // Sizes below kSmallLimit indexed directly (a hash lookup was a tenth of a small op's time),
  // larger ones by size.
  std::vector<std::vector<void*>> small_free_lists_ =
      std::vector<std::vector<void*>>(kSmallLimit / kSmallQuantum);
  std::unordered_map<size_t, std::vector<void*>> large_free_lists_;
  AllocatorStats stats_;
};

}  // namespace

bool allocator_cache_enabled() { return cache_enabled.load(); }

void set_allocator_cache_enabled(bool enabled) {
  cache_enabled.store(enabled);
  if (!enabled) {
    allocator_for(Device(kCPU)).empty_cache();
    pinned_host_allocator().empty_cache();
  }
}

Allocator& cpu_allocator() {
  // Never destroyed: a tensor in static storage made before the first allocation would
  // otherwise free its memory into a destroyed allocator at exit.
  static auto* allocator = new CachingHostAllocator;
  return *allocator;
}

#ifndef ACCEL_WITH_CUDA  // the CUDA build page-locks it: core/cuda/cuda_allocator.cpp
Allocator& pinned_host_allocator() {
  // Without the CUDA backend there is no page-locking to do: pinned memory is host memory,
  // kept apart from the regular pool so its statistics stay separate.
  static auto* allocator = new CachingHostAllocator;  // never destroyed, as cpu_allocator()
  return *allocator;
}
#endif

Allocator& allocator_for(Device device) {
  if (device.is_cpu()) return cpu_allocator();
  cuda::check_device(device, "allocate");
  return cuda_allocator(device);
}

}  // namespace accel
