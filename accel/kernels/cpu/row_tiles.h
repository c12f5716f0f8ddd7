// How the CPU's reduction-style kernels (reductions, softmax, cross-entropy) walk the
// [outer, reduced, inner] view: in tiles of up to kTileWidth adjacent outputs, split across
// threads. Each tile is computed wholly by one thread, so results are the same for any count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "accel/kernels/common/reduce_shape.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

// Wide enough for the loop across a tile to vectorize, narrow enough for a tile's per-output
// accumulators to stay on the stack.
inline constexpr int64_t kTileWidth = 64;

// The tile width when inner == 1: a compile-time 1, so tile loops collapse to row loops.
using UnitWidth = std::integral_constant<int64_t, 1>;

// Calls f(in_offset, out_offset, width) for tiles of adjacent outputs covering the shape:
// output out_offset + k (k < width) reduces in[in_offset + r * inner + k] over r. width is a
// UnitWidth when inner == 1 (the tile is one contiguous row), an int64_t otherwise.
template <typename F>
void for_each_tile(ReduceShape s, F&& f) {
  const int64_t row_work = std::max<int64_t>(s.reduced, 1);
  if (s.inner == 1) {
    parallel_for(0, s.outer, std::max<int64_t>(1, kElementwiseGrain / row_work),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t o = begin; o < end; ++o) f(o * s.reduced, o, UnitWidth{});
                 });
    return;
  }
  const int64_t per_outer = (s.inner + kTileWidth - 1) / kTileWidth;
  const int64_t tile_work = row_work * std::min(s.inner, kTileWidth);
  parallel_for(0, s.outer * per_outer, std::max<int64_t>(1, kElementwiseGrain / tile_work),
               [&](int64_t begin, int64_t end) {
                 for (int64_t t = begin; t < end; ++t) {
                   const int64_t o = t / per_outer;
                   const int64_t i = (t % per_outer) * kTileWidth;
                   f(o * s.reduced * s.inner + i, o * s.inner + i,
                     std::min(kTileWidth, s.inner - i));
                 }
               });
}

}  // namespace accel::cpu
