// A thread-local pool for the small objects every op makes (autograd nodes, tensor impls,
// storages): instead of a malloc/free pair per object, freed memory is kept on per-size
// free lists and reused. Memory freed on another thread simply joins that thread's lists.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace accel {

void* pool_allocate(size_t bytes);
void pool_deallocate(void* ptr, size_t bytes) noexcept;

template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(pool_allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { pool_deallocate(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const {
    return true;
  }
};

// std::allocate_shared from the pool: one pooled block holds the object and its count.
template <typename T, typename... Args>
std::shared_ptr<T> make_pooled(Args&&... args) {
  return std::allocate_shared<T>(PoolAllocator<T>(), std::forward<Args>(args)...);
}

}  // namespace accel
