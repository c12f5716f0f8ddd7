// A stable least-significant-digit radix sort of one column, for long columns where comparison
// sorts cost O(n log n) comparisons: each value becomes an unsigned key whose order is
// math::sorts_before's (NaN above every number and all NaNs equal, -0.0 equal to 0.0, keys
// inverted for a descending sort), and the (key, position) pairs are distributed by one byte
// of the key per pass, from the lowest. A pass whose byte is the same for every key is skipped
// (16-bit floats, small integers). Stability keeps equal keys in order of position, so the
// result equals the comparison sort's, element for element. A long column's passes run on
// several threads, each over a piece of it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "accel/kernels/cpu/parallel.h"

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

// Elements per piece from which a long column is counted and distributed by several threads.
inline constexpr int64_t kRadixPiece = int64_t{1} << 16;

// Sorts column[0..n) (read through `value(r)`, converted to C) and writes the positions of the
// first k in sorted order to dst[j * dst_stride]. A long column is cut into contiguous pieces,
// one per thread: in every pass each piece counts its bytes, and a piece's keys land in each
// bucket after those of the pieces before it, so the order is the same for any thread count.
template <bool Descending, typename C, typename ValueAt>
void radix_sort_column(int64_t n, ValueAt&& value, int64_t k, int64_t* dst, int64_t dst_stride,
                       RadixScratch<RadixKey<C>>& scratch) {
  using K = RadixKey<C>;
  using Histogram = std::array<uint32_t, 256>;
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
  const int64_t pieces = std::clamp<int64_t>(n / kRadixPiece, 1, get_num_threads());
  const auto piece_begin = [&](int64_t piece) { return n * piece / pieces; };

  // Every pass's byte counts over the whole column: a pass whose byte is one value is skipped.
  std::vector<std::array<Histogram, kPasses>> piece_totals(static_cast<size_t>(pieces));
  parallel_for(0, pieces, 1, [&](int64_t first, int64_t last) {
    for (int64_t piece = first; piece < last; ++piece) {
      std::array<Histogram, kPasses>& totals = piece_totals[static_cast<size_t>(piece)];
      totals = {};
      for (int64_t r = piece_begin(piece); r < piece_begin(piece + 1); ++r) {
        K key = radix_key<C>(static_cast<C>(value(r)));
        if constexpr (Descending) key = ~key;
        keys[r] = key;
        positions[r] = static_cast<uint32_t>(r);
        for (int pass = 0; pass < kPasses; ++pass) ++totals[pass][(key >> (8 * pass)) & 0xFF];
      }
    }
  });
  std::vector<Histogram> slots(static_cast<size_t>(pieces));
  for (int pass = 0; pass < kPasses; ++pass) {
    const auto byte = [pass](K key) { return static_cast<size_t>((key >> (8 * pass)) & 0xFF); };
    uint32_t in_first_bucket = 0;
    for (const auto& totals : piece_totals) in_first_bucket += totals[pass][byte(keys[0])];
    if (in_first_bucket == count) continue;
    // Each piece's count of each byte in the column's current order (the totals on one piece).
    std::vector<Histogram> counts(static_cast<size_t>(pieces));
    parallel_for(0, pieces, 1, [&](int64_t first, int64_t last) {
      for (int64_t piece = first; piece < last; ++piece) {
        Histogram& c = counts[static_cast<size_t>(piece)];
        if (pieces == 1) {
          c = piece_totals[0][pass];
          continue;
        }
        c = {};
        for (int64_t i = piece_begin(piece); i < piece_begin(piece + 1); ++i) ++c[byte(keys[i])];
      }
    });
    uint32_t start = 0;
    for (size_t b = 0; b < 256; ++b) {
      for (int64_t piece = 0; piece < pieces; ++piece) {
        slots[static_cast<size_t>(piece)][b] = start;
        start += counts[static_cast<size_t>(piece)][b];
      }
    }
    parallel_for(0, pieces, 1, [&](int64_t first, int64_t last) {
      for (int64_t piece = first; piece < last; ++piece) {
        Histogram& next = slots[static_cast<size_t>(piece)];
        for (int64_t i = piece_begin(piece); i < piece_begin(piece + 1); ++i) {
          const uint32_t slot = next[byte(keys[i])]++;
          other_keys[slot] = keys[i];
          other_positions[slot] = positions[i];
        }
      }
    });
    std::swap(keys, other_keys);
    std::swap(positions, other_positions);
  }
  for (int64_t j = 0; j < k; ++j) dst[j * dst_stride] = positions[j];
}

}  // namespace accel::cpu
