// Thread-local free lists of small blocks, in 32-byte size classes up to 1 KiB.
#include "accel/core/object_pool.h"

#include <cstdlib>
#include <new>
#include <vector>

#include "accel/core/allocator.h"

namespace accel {

namespace {
constexpr size_t kGranule = 32;
constexpr size_t kClasses = 32;  // blocks up to 1 KiB are pooled
constexpr size_t kMaxBlocksPerClass = 4096;

thread_local bool pool_destroyed = false;  // trivially destructible: readable at exit

struct FreeLists {
  std::vector<void*> lists[kClasses];
  ~FreeLists() {
    pool_destroyed = true;
    for (auto& list : lists) {
      for (void* p : list) ::operator delete(p);
    }
  }
};
thread_local FreeLists free_lists;

size_t size_class(size_t bytes) { return (bytes + kGranule - 1) / kGranule; }

// Pooling is off under sanitizers (so AddressSanitizer sees every node's lifetime) and after
// this thread's lists were destroyed.
bool pooling() { return !pool_destroyed && allocator_cache_enabled(); }
}  // namespace

void* pool_allocate(size_t bytes) {
  const size_t c = size_class(bytes);
  if (c < kClasses && pooling()) {
    auto& list = free_lists.lists[c];
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      return p;
    }
  }
  // Pooled sizes are always allocated at their class size, so any block can join a list.
  return ::operator new(c < kClasses ? c * kGranule : bytes);
}

void pool_deallocate(void* ptr, size_t bytes) noexcept {
  const size_t c = size_class(bytes);
  if (c < kClasses && pooling()) {
    auto& list = free_lists.lists[c];
    if (list.size() < kMaxBlocksPerClass) {
      try {
        list.push_back(ptr);
        return;
      } catch (...) {
      }
    }
  }
  ::operator delete(ptr);
}

}  // namespace accel
