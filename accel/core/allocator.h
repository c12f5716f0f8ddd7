// Allocator: where tensor memory comes from. One interface for every device: an allocation
// is tied to a device and a stream (the CUDA allocator reuses a block on the stream that
// freed it without synchronizing); a pinned-host variant serves async host<->device copies.
// Allocators are thread-safe (loader workers allocate, the training thread frees) and keep
// current/peak statistics. The caching CPU allocator keeps freed blocks for reuse, since
// large glibc allocations are fresh mmaps that page-fault on every first touch; its cache
// can be bypassed (ACCEL_ALLOCATOR_BYPASS=1, or the build option used by sanitizer builds)
// so AddressSanitizer sees every use after free.
#pragma once

#include <cstddef>
#include <cstdint>

#include "accel/base/device.h"
#include "accel/core/stream.h"

namespace accel {

struct AllocatorStats {
  int64_t allocated_bytes = 0;         // held by live tensors now
  int64_t peak_allocated_bytes = 0;    // the most ever held at once (since the last reset)
  int64_t cached_bytes = 0;            // freed by tensors, kept by the allocator for reuse
  int64_t reserved_bytes = 0;          // obtained from the system and not yet returned
  int64_t num_allocations = 0;         // calls to allocate
  int64_t num_cache_hits = 0;          // ... served from the cache
  int64_t num_system_allocations = 0;  // requests to the system (aligned_alloc, cudaMalloc)
  int64_t num_system_frees = 0;        // memory returned to the system
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Returns memory aligned to at least 64 bytes, or throws accel::Error when out of memory.
  // nbytes == 0 returns nullptr.
  virtual void* allocate(size_t nbytes, const Stream& stream) = 0;
  virtual void deallocate(void* ptr, size_t nbytes, const Stream& stream) = 0;
  // Notes that `stream` also uses the allocation at `ptr` (torch's record_stream): when freed,
  // it is reused only after the work queued on `stream` until then has completed. A no-op
  // where work completes eagerly (the CPU).
  virtual void record_stream(void* ptr, const Stream& stream) {
    (void)ptr;
    (void)stream;
  }
  virtual Device device() const = 0;
  virtual AllocatorStats stats() const = 0;
  virtual void reset_peak_stats() = 0;
  // Returns cached blocks to the system.
  virtual void empty_cache() = 0;
};

Allocator& cpu_allocator();
// The caching allocator of one CUDA device (device checked by the caller).
Allocator& cuda_allocator(Device device);
// The allocator for tensors on `device` (throws when this build or machine lacks it).
Allocator& allocator_for(Device device);
// Page-locked host memory for async copies (plain cached CPU memory in a CUDA-less build).
Allocator& pinned_host_allocator();

// Whether freed blocks are kept for reuse. Off under sanitizers; tests may toggle it.
bool allocator_cache_enabled();
void set_allocator_cache_enabled(bool enabled);

}  // namespace accel
