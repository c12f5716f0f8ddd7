// A thread-local pool for autograd nodes: every recorded op makes one, so instead of a
// malloc/free pair per op, freed node memory is kept on per-size free lists and reused.
// Memory freed on another thread simply joins that thread's lists.
#pragma once

#include <cstddef>
#include <memory>

namespace accel::autograd {

void* node_pool_allocate(size_t bytes);
void node_pool_deallocate(void* ptr, size_t bytes) noexcept;

template <typename T>
struct NodePoolAllocator {
  using value_type = T;
  NodePoolAllocator() = default;
  template <typename U>
  NodePoolAllocator(const NodePoolAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(node_pool_allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { node_pool_deallocate(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const NodePoolAllocator<U>&) const {
    return true;
  }
};

}  // namespace accel::autograd
