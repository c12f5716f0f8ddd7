// Cumulative sums, products, log-sum-exps, maxima and minima. Contiguous rows (inner == 1) run a
// few at a time, their chains interleaved; otherwise up to kTileWidth adjacent columns (o, i..i+w)
// advance together through r, so each step reads and writes a contiguous run. Each element's sum or
// product is formed in the same order either way, and rows and tiles are independent, so any thread
// count gives the same bits.
#include "accel/kernels/cpu/scan.h"

#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

using math::ScanOp;

constexpr int64_t kTileWidth = 64;
constexpr int64_t kRowsAtOnce = 4;

// Rows (inner == 1) `rows` at a time, each its own chain held in a register, so the chains'
// latencies overlap; the order within each row is unchanged.
template <ScanOp Op, int64_t Rows, typename T>
void scan_rows(const T* in, T* out, int64_t length) {
  using Acc = math::scan_accumulate_t<T>;
  Acc running[Rows];
  std::fill_n(running, Rows, math::scan_identity<Op, Acc>());
  for (int64_t r = 0; r < length; ++r) {
    for (int64_t j = 0; j < Rows; ++j) {
      running[j] = math::scan_combine<Op>(running[j], static_cast<Acc>(in[j * length + r]));
      out[j * length + r] = static_cast<T>(running[j]);
    }
  }
}

template <ScanOp Op, typename T>
void scan_typed(const T* in, T* out, ReduceShape s) {
  if (s.inner == 1) {
    const int64_t groups = (s.outer + kRowsAtOnce - 1) / kRowsAtOnce;
    const int64_t grain =
        std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, s.reduced * kRowsAtOnce));
    parallel_for(0, groups, grain, [&](int64_t begin, int64_t end) {
      for (int64_t g = begin; g < end; ++g) {
        const int64_t first = g * kRowsAtOnce;
        const int64_t offset = first * s.reduced;
        if (s.outer - first >= kRowsAtOnce) {
          scan_rows<Op, kRowsAtOnce>(in + offset, out + offset, s.reduced);
        } else {
          for (int64_t row = first; row < s.outer; ++row) {
            scan_rows<Op, 1>(in + row * s.reduced, out + row * s.reduced, s.reduced);
          }
        }
      }
    });
    return;
  }
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
      Acc running[kTileWidth];
      std::fill_n(running, kTileWidth, math::scan_identity<Op, Acc>());
      for (int64_t r = 0; r < s.reduced; ++r) {
        const int64_t row = offset + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          running[k] = math::scan_combine<Op>(running[k], static_cast<Acc>(in[row + k]));
          out[row + k] = static_cast<T>(running[k]);
        }
      }
    }
  });
}

}  // namespace

void scan(ScalarType type, ScanOp op, const void* in, void* out, ReduceShape shape) {
  math::visit(op, [&]<ScanOp Op>() {
    dispatch_numeric(type, math::scan_name(op), [&]<typename T>() {
      scan_typed<Op>(static_cast<const T*>(in), static_cast<T*>(out), shape);
    });
  });
}

}  // namespace accel::cpu
