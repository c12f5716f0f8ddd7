// SmallVector<T, N>: a vector that keeps up to N elements inline and spills to the heap
// beyond that. Tensor geometry and autograd edges use it so that the common cases (up to
// six dimensions, up to a few inputs per op) cost no heap allocation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace accel {

template <typename T, size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  explicit SmallVector(size_t n, const T& value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <typename It>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  template <typename Range>
  requires requires(const Range& r) {
    r.begin();
    r.end();
  }
  SmallVector(const Range& r) { assign(r.begin(), r.end()); }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { *this = std::move(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this == &other) return *this;
    if (other.size_ > N) {
      heap_ = std::move(other.heap_);
    } else {
      heap_.clear();
      std::move(other.inline_, other.inline_ + other.size_, inline_);
    }
    size_ = other.size_;
    other.heap_.clear();
    other.size_ = 0;
    return *this;
  }

  template <typename It>
  void assign(It first, It last) {
    set_size(static_cast<size_t>(std::distance(first, last)));
    std::copy(first, last, data());
  }
  void assign(size_t n, const T& value) {
    set_size(n);
    std::fill(data(), data() + n, value);
  }
  // New elements are value-initialized, as std::vector's are.
  void resize(size_t n) {
    const size_t old_size = size_;
    set_size(n);
    if (n > old_size && n <= N) std::fill(inline_ + old_size, inline_ + n, T());
  }
  void clear() { set_size(0); }
  void push_back(T v) {
    set_size(size_ + 1);
    data()[size_ - 1] = std::move(v);
  }
  void insert(size_t pos, T v) {
    set_size(size_ + 1);
    T* d = data();
    std::move_backward(d + pos, d + size_ - 1, d + size_);
    d[pos] = std::move(v);
  }
  void erase(size_t pos) {
    T* d = data();
    std::move(d + pos + 1, d + size_, d + pos);
    set_size(size_ - 1);
  }

  T* data() { return size_ > N ? heap_.data() : inline_; }
  const T* data() const { return size_ > N ? heap_.data() : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  std::vector<T> vec() const { return {begin(), end()}; }
  bool operator==(const SmallVector& o) const {
    return std::equal(begin(), end(), o.begin(), o.end());
  }

 private:
  // Changes the size; elements added inline are left for the caller to write.
  void set_size(size_t n) {
    if (n > N) {
      if (size_ <= N) {
        heap_.assign(std::make_move_iterator(inline_), std::make_move_iterator(inline_ + size_));
      }
      heap_.resize(n);
    } else if (size_ > N) {
      std::move(heap_.begin(), heap_.begin() + static_cast<std::ptrdiff_t>(n), inline_);
      heap_.clear();
    } else if constexpr (!std::is_trivially_copyable_v<T>) {
      // Drop what the removed elements held (shared_ptrs in autograd edges).
      std::fill(std::begin(inline_) + n, std::begin(inline_) + std::max(n, size_), T());
    }
    size_ = n;
  }

  // Plain values (sizes, strides) are left unset until written: a tensor holds two of these
  // and an op makes a tensor, so zeroing them would cost as much as filling them.
  T inline_[N];
  std::vector<T> heap_;
  size_t size_ = 0;
};

}  // namespace accel
