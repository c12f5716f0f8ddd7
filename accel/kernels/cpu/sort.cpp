// Sorting each column (o, :, i) on its own: its elements are copied out with their r, ordered
// by value and then by r (the order a stable sort gives), and the first k r written back. When
// k is below the column's length only those k are ordered (a partial sort, or for a few, one
// pass that keeps the best so far); long columns sorted whole take a radix sort (radix_sort.h),
// which orders them the same way. Columns are independent, so any thread count gives the same
// result.
#include "accel/kernels/cpu/sort.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/radix_sort.h"
#include "accel/kernels/cpu/row_fold.h"

namespace accel::cpu {

namespace {

// Up to this many wanted elements (topk's usual k) are found in one pass instead of a sort.
constexpr int64_t kFewWanted = 16;
// Columns sorted whole from this length on take the radix sort, where its passes over the
// column cost less than a comparison sort's log2(n) levels.
constexpr int64_t kRadixMinimum = 256;

template <bool Descending, typename T>
void sort_typed(const T* in, int64_t* indices, ReduceShape s, int64_t k) {
  if (k == 0) return;  // nothing to write (and an empty input may have no memory at all)
  using C = compute_t<T>;
  struct Entry {
    C value;
    int64_t r;
  };
  auto before = [](const Entry& a, const Entry& b) {
    if (math::sorts_before<Descending>(a.value, b.value)) return true;
    if (math::sorts_before<Descending>(b.value, a.value)) return false;
    return a.r < b.r;
  };
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, s.reduced));
  const bool radix = k == s.reduced && s.reduced >= kRadixMinimum && s.reduced <= UINT32_MAX;
  parallel_for(0, s.outer * s.inner, grain, [&](int64_t begin, int64_t end) {
    std::vector<Entry> column;  // sized on first use: the one-pass path needs none
    RadixScratch<RadixKey<C>> radix_scratch;
    for (int64_t c = begin; c < end; ++c) {
      const int64_t o = c / s.inner;
      const int64_t i = c % s.inner;
      const T* src = in + o * s.reduced * s.inner + i;
      int64_t* dst = indices + o * k * s.inner + i;
      if (radix) {
        radix_sort_column<Descending, C>(
            s.reduced, [&](int64_t r) { return src[r * s.inner]; }, k, dst, s.inner, radix_scratch);
        continue;
      }
      if (k <= kFewWanted && k < s.reduced) {
        // One pass keeping the best k so far in order: an element enters only if it comes
        // before the current k-th, which most do not, so this costs about one comparison each.
        // Elements come in order of r, so one that ties with the k-th comes after it and stays
        // out: only a value that sorts strictly before the k-th's enters.
        Entry best[kFewWanted];
        int64_t count = 0;
        for (int64_t r = 0; r < s.reduced; ++r) {
          const C v = static_cast<C>(src[r * s.inner]);
          if (count == k && !math::sorts_before<Descending>(v, best[k - 1].value)) continue;
          int64_t pos = count < k ? count++ : k - 1;
          for (; pos > 0 && math::sorts_before<Descending>(v, best[pos - 1].value); --pos) {
            best[pos] = best[pos - 1];
          }
          best[pos] = {v, r};
        }
        for (int64_t j = 0; j < k; ++j) dst[j * s.inner] = best[j].r;
        continue;
      }
      column.resize(static_cast<size_t>(s.reduced));
      for (int64_t r = 0; r < s.reduced; ++r) column[r] = {static_cast<C>(src[r * s.inner]), r};
      if (k < s.reduced) {
        std::partial_sort(column.begin(), column.begin() + k, column.end(), before);
      } else {
        std::sort(column.begin(), column.end(), before);
      }
      for (int64_t j = 0; j < k; ++j) dst[j * s.inner] = column[j].r;
    }
  });
}

}  // namespace

void sort(ScalarType type, const void* in, int64_t* indices, ReduceShape shape, int64_t k,
          bool descending) {
  dispatch_all(type, "sort", [&]<typename T>() {
    const auto* x = static_cast<const T*>(in);
    if (descending) {
      sort_typed<true>(x, indices, shape, k);
    } else {
      sort_typed<false>(x, indices, shape, k);
    }
  });
}

}  // namespace accel::cpu
