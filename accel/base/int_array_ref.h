// IntArrayRef: a non-owning view of int64 sizes, dims or strides that accepts braced lists,
// vectors and DimVector without allocating (LibTorch's c10::IntArrayRef), and DimVector:
// the inline vector tensors keep their sizes and strides in.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <vector>

#include "accel/base/small_vector.h"

namespace accel {

class IntArrayRef {
 public:
  constexpr IntArrayRef() = default;
#pragma GCC diagnostic push
#ifndef __clang__  // GCC's warning only; clang has none like it
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  // The list lives until the end of the full expression, as long as the call using it.
  constexpr IntArrayRef(std::initializer_list<int64_t> list)
      : data_(list.begin()), size_(list.size()) {}
#pragma GCC diagnostic pop
  constexpr IntArrayRef(const int64_t* data, size_t size) : data_(data), size_(size) {}
  IntArrayRef(const std::vector<int64_t>& v) : data_(v.data()), size_(v.size()) {}
  constexpr IntArrayRef(std::span<const int64_t> s) : data_(s.data()), size_(s.size()) {}
  template <size_t N>
  IntArrayRef(const SmallVector<int64_t, N>& v) : data_(v.data()), size_(v.size()) {}
  // A single value: t.sum(1) as well as t.sum({0, 1}).
  constexpr IntArrayRef(const int64_t& single) : data_(&single), size_(1) {}

  constexpr const int64_t* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const int64_t* begin() const { return data_; }
  constexpr const int64_t* end() const { return data_ + size_; }
  constexpr int64_t operator[](size_t i) const { return data_[i]; }
  constexpr int64_t front() const { return data_[0]; }
  constexpr int64_t back() const { return data_[size_ - 1]; }
  std::vector<int64_t> vec() const { return {begin(), end()}; }
  bool operator==(IntArrayRef other) const { return std::ranges::equal(*this, other); }

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

std::ostream& operator<<(std::ostream& out, IntArrayRef values);

inline int64_t product(IntArrayRef values) {
  int64_t p = 1;
  for (int64_t v : values) p *= v;
  return p;
}

inline constexpr size_t kInlineDims = 6;
// Tensor sizes and strides: kInlineDims dimensions without touching the heap.
using DimVector = SmallVector<int64_t, kInlineDims>;

inline IntArrayRef as_ref(const DimVector& v) { return IntArrayRef(v.data(), v.size()); }

}  // namespace accel

template <>
struct fmt::formatter<accel::IntArrayRef> : fmt::formatter<std::string_view> {
  auto format(accel::IntArrayRef v, format_context& ctx) const {
    return fmt::format_to(ctx.out(), "[{}]", fmt::join(v.begin(), v.end(), ", "));
  }
};
template <>
struct fmt::formatter<accel::DimVector> : fmt::formatter<accel::IntArrayRef> {};
template <>
struct fmt::is_range<accel::IntArrayRef, char> : std::false_type {};
template <>
struct fmt::is_range<accel::DimVector, char> : std::false_type {};
