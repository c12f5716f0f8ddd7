// Cumulative sums: up to kTileWidth adjacent columns (o, i..i+w) advance together through r,
// so with inner > 1 each step reads and writes a contiguous run; with inner == 1 a tile is one
// row. Tiles are independent, so any thread count gives the same bits.
#include "accel/kernels/cpu/scan.h"

#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

constexpr int64_t kTileWidth = 64;

template <typename T>
void cumsum_typed(const T* in, T* out, ReduceShape s) {
  using Acc = math::scan_accumulate_t<T>;
  const int64_t tiles_per_outer = (s.inner + kTileWidth - 1) / kTileWidth;
  const int64_t tile_elements = s.reduced * std::min(s.inner, kTileWidth);
  const int64_t grain =
      std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, tile_elements));
  parallel_for(0, s.outer * tiles_per_outer, grain, [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t first = (tile % tiles_per_outer) * kTileWidth;
      const int64_t width = std::min(kTileWidth, s.inner - first);
      const int64_t offset = tile / tiles_per_outer * s.reduced * s.inner + first;
      Acc running[kTileWidth] = {};
      for (int64_t r = 0; r < s.reduced; ++r) {
        const int64_t row = offset + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          running[k] += static_cast<Acc>(in[row + k]);
          out[row + k] = static_cast<T>(running[k]);
        }
      }
    }
  });
}

}  // namespace

void cumsum(ScalarType type, const void* in, void* out, ReduceShape shape) {
  dispatch_numeric(type, "cumsum", [&]<typename T>() {
    cumsum_typed(static_cast<const T*>(in), static_cast<T*>(out), shape);
  });
}

}  // namespace accel::cpu
