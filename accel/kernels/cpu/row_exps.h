// The passes over one contiguous row that softmax, log-sum-exp and cross-entropy share: the
// row's maximum, the sum of its exps shifted by it (stored as they are summed, for softmax), and
// a scaling in place. float rows are walked in simd_vector.h's 64-byte vectors, with the partial
// results fold_row would keep, in its order (so the same bits): the compiler, left to vectorize
// the exp's polynomial itself, kept the partial sums in memory and reloaded them every step.
#pragma once

#include <cstdint>
#include <type_traits>

#include "accel/kernels/cpu/exp_shifted.h"
#include "accel/kernels/cpu/row_fold.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

// Whether rows of T with accumulate type A take the vector passes.
template <typename A, typename T>
inline constexpr bool kRowOfFloats = std::is_same_v<A, float>&& std::is_same_v<T, float>;

// The largest of a row's n terms as A (NaN if one is).
template <typename A, typename T>
A row_max(const T* x, int64_t n) {
  if constexpr (kRowOfFloats<A, T>) {
    return fold_row_vectors<Extreme<true>, float>(
        n, [x](int64_t i) { return simd::load(x + i); }, [x](int64_t i) { return x[i]; });
  } else {
    return fold_row<Extreme<true>, A>(n, [x](int64_t i) { return static_cast<A>(x[i]); });
  }
}

// The sum of exp(x[i] - shift) over a row's n terms.
template <typename A, typename T>
A sum_of_exps(const T* x, A shift, int64_t n) {
  if constexpr (kRowOfFloats<A, T>) {
    return fold_row_vectors<Add, float>(
        n, [x, shift](int64_t i) { return exp_shifted(simd::load(x + i) - shift); },
        [x, shift](int64_t i) { return exp_shifted(x[i] - shift); });
  } else {
    return fold_row<Add, A>(
        n, [x, shift](int64_t i) { return exp_shifted(static_cast<A>(x[i]) - shift); });
  }
}

// y[i] = exp(x[i] - shift) over a row's n terms, written as they are summed (each taken once);
// returns their sum.
template <typename A, typename T>
A store_exps(const T* x, A shift, T* y, int64_t n) {
  if constexpr (kRowOfFloats<A, T>) {
    return fold_row_vectors<Add, float>(
        n,
        [x, y, shift](int64_t i) {
          const simd::Vector<float> e = exp_shifted(simd::load(x + i) - shift);
          simd::store(y + i, e);
          return e;
        },
        [x, y, shift](int64_t i) { return y[i] = exp_shifted(x[i] - shift); });
  } else {
    return fold_row<Add, A>(n, [x, y, shift](int64_t i) {
      const A e = exp_shifted(static_cast<A>(x[i]) - shift);
      y[i] = static_cast<T>(e);
      return e;
    });
  }
}

// y[i] *= scale over a row's n terms. (For floats in store_exps' vectors: a narrower load of a
// stretch just stored whole waits for the store to retire instead of reading it forwarded.)
template <typename A, typename T>
void scale_row(T* y, A scale, int64_t n) {
  int64_t i = 0;
  if constexpr (kRowOfFloats<A, T>) {
    for (; i + simd::kLanes<float> <= n; i += simd::kLanes<float>)
      simd::store(y + i, simd::load(y + i) * scale);
  }
  for (; i < n; ++i) y[i] = static_cast<T>(static_cast<A>(y[i]) * scale);
}

}  // namespace accel::cpu
