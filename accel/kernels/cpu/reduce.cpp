// Deterministic sums. An inner-contiguous row (inner == 1) is summed chunk by chunk, each
// chunk left to right in a vectorizable loop; with inner > 1 the reduced index walks rows
// of `inner` contiguous outputs at once, which vectorizes across the outputs instead.
#include "accel/kernels/cpu/reduce.h"

#include <vector>

#include "accel/core/dispatch.h"
#include "accel/core/parallel.h"

namespace accel::cpu {

namespace {

template <typename Acc, typename In>
Acc sum_row(const In* in, int64_t n) {
  Acc total = 0;
  for (int64_t start = 0; start < n; start += kReduceChunk) {
    const int64_t end = std::min(n, start + kReduceChunk);
    // Eight independent partial sums let the compiler vectorize without reassociating.
    Acc partial[8] = {};
    int64_t i = start;
    for (; i + 8 <= end; i += 8) {
      for (int k = 0; k < 8; ++k) partial[k] += static_cast<Acc>(in[i + k]);
    }
    for (; i < end; ++i) partial[0] += static_cast<Acc>(in[i]);
    total += ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
             ((partial[4] + partial[5]) + (partial[6] + partial[7]));
  }
  return total;
}

template <typename Out, typename In>
void sum_typed(const In* in, Out* out, ReduceShape s) {
  using Acc = std::conditional_t<std::is_floating_point_v<Out> || std::is_same_v<Out, Half> ||
                                     std::is_same_v<Out, BFloat16>,
                                 std::conditional_t<std::is_same_v<Out, double>, double, float>,
                                 Out>;
  if (s.inner == 1) {
    parallel_for(0, s.outer, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(s.reduced, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t o = begin; o < end; ++o) {
                     out[o] = static_cast<Out>(sum_row<Acc>(in + o * s.reduced, s.reduced));
                   }
                 });
    return;
  }
  const int64_t rows = s.outer * s.inner;
  parallel_for(0, s.outer, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(rows, 1)),
               [&](int64_t begin, int64_t end) {
                 std::vector<Acc> acc(static_cast<size_t>(s.inner));
                 for (int64_t o = begin; o < end; ++o) {
                   std::fill(acc.begin(), acc.end(), Acc(0));
                   const In* base = in + o * s.reduced * s.inner;
                   for (int64_t r = 0; r < s.reduced; ++r) {
                     const In* row = base + r * s.inner;
                     for (int64_t i = 0; i < s.inner; ++i) acc[i] += static_cast<Acc>(row[i]);
                   }
                   for (int64_t i = 0; i < s.inner; ++i) {
                     out[o * s.inner + i] = static_cast<Out>(acc[i]);
                   }
                 }
               });
}

}  // namespace

void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape) {
  dispatch_numeric(out_type, "sum", [&]<typename Out>() {
    dispatch_all(in_type, "sum", [&]<typename In>() {
      sum_typed<Out, In>(static_cast<const In*>(in), static_cast<Out*>(out), shape);
    });
  });
}

}  // namespace accel::cpu
