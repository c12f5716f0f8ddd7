// A stable least-significant-digit radix sort of one column, for long columns where comparison
// sorts cost O(n log n) comparisons: each value becomes an unsigned key whose order is
// math::sorts_before's (NaN above every number and all NaNs equal, -0.0 equal to 0.0, keys
// inverted for a descending sort), and the (key, position) pairs are distributed by one byte
// of the key per pass, from the lowest. A pass whose byte is the same for every key is skipped
// (16-bit floats, small integers). Stability keeps equal keys in order of position, so the
// result equals the comparison sort's, element for element.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace accel::cpu {

// The unsigned type of a key for values of type C.
template <typename C>
using RadixKey = std::conditional_t<sizeof(C) <= 4, uint32_t, uint64_t>;

// The key of v: unsigned integers compare as v is ordered, equal keys for equal values.
template <typename C>
RadixKey<C> radix_key(C v) {
  using K = RadixKey<C>;
  constexpr K kSign = K{1} << (8 * sizeof(K) - 1);
  if constexpr (std::is_floating_point_v<C>) {
    if (v != v) return ~K{0};  // every NaN last
    if (v == 0) v = 0;         // -0.0 equals 0.0
    K bits;
    if constexpr (sizeof(C) == sizeof(K)) {
      bits = std::bit_cast<K>(v);
    } else {
      bits = std::bit_cast<uint32_t>(static_cast<float>(v));
    }
    // Negative numbers in reverse (their magnitude grows as they fall), below the positive.
    return (bits & kSign) != 0 ? ~bits : bits | kSign;
  } else if constexpr (std::is_signed_v<C>) {
    return static_cast<K>(static_cast<K>(static_cast<std::make_signed_t<K>>(v)) ^ kSign);
  } else {
    return static_cast<K>(v);
  }
}

// Scratch reused from column to column by one thread.
template <typename K>
struct RadixScratch {
  std::vector<K> keys, other_keys;
  std::vector<uint32_t> positions, other_positions;
};

// Sorts column[0..n) (read through `value(r)`, converted to C) and writes the positions of the
// first k in sorted order to dst[j * dst_stride].
template <bool Descending, typename C, typename ValueAt>
void radix_sort_column(int64_t n, ValueAt&& value, int64_t k, int64_t* dst, int64_t dst_stride,
                       RadixScratch<RadixKey<C>>& scratch) {
  using K = RadixKey<C>;
  constexpr int kPasses = sizeof(K);
  const auto count = static_cast<size_t>(n);
  scratch.keys.resize(count);
  scratch.other_keys.resize(count);
  scratch.positions.resize(count);
  scratch.other_positions.resize(count);
  K* keys = scratch.keys.data();
  K* other_keys = scratch.other_keys.data();
  uint32_t* positions = scratch.positions.data();
  uint32_t* other_positions = scratch.other_positions.data();

  std::array<std::array<uint32_t, 256>, kPasses> histograms{};
  for (int64_t r = 0; r < n; ++r) {
    K key = radix_key<C>(static_cast<C>(value(r)));
    if constexpr (Descending) key = ~key;
    keys[r] = key;
    positions[r] = static_cast<uint32_t>(r);
    for (int pass = 0; pass < kPasses; ++pass) ++histograms[pass][(key >> (8 * pass)) & 0xFF];
  }
  for (int pass = 0; pass < kPasses; ++pass) {
    std::array<uint32_t, 256>& histogram = histograms[pass];
    if (histogram[(keys[0] >> (8 * pass)) & 0xFF] == count) continue;  // one byte value: in order
    uint32_t start = 0;
    for (uint32_t& bucket : histogram) {
      const uint32_t size = bucket;
      bucket = start;
      start += size;
    }
    for (size_t i = 0; i < count; ++i) {
      const uint32_t slot = histogram[(keys[i] >> (8 * pass)) & 0xFF]++;
      other_keys[slot] = keys[i];
      other_positions[slot] = positions[i];
    }
    std::swap(keys, other_keys);
    std::swap(positions, other_positions);
  }
  for (int64_t j = 0; j < k; ++j) dst[j * dst_stride] = positions[j];
}

}  // namespace accel::cpu
