// Folds of one contiguous row on the CPU, shared by the reductions, softmax, cross-entropy and
// layer normalization: kLanes interleaved partial results that the compiler vectorizes without
// reassociating, over fixed chunks of kReduceChunk terms combined in order, so a row's result
// has the same bits whichever thread folds it; the same folds with the terms given a vector at a
// time, for terms too long for the compiler to vectorize well. Also the fold operations (sum,
// product, and a maximum or minimum that propagates NaN, on scalars or vectors) and the type
// kernels compute 16-bit floats in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

// Terms per chunk; a long row's chunks may be folded on different threads.
inline constexpr int64_t kReduceChunk = 4096;

// The type a kernel computes in: float for 16-bit floats, the element type otherwise.
template <typename T>
using compute_t =
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

// (On a simd::Vector, a lane mask.)
template <typename T>
auto is_nan(T v) {
  if constexpr (std::is_integral_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return false;
  } else {
    return v != v;  // std::isnan, in a form the vectorizer knows
  }
}

// ---- folds: sum, prod, max and min ----

// Signed integers wrap around on overflow, as in PyTorch, instead of being undefined: the
// arithmetic runs in the unsigned type.
template <typename T>
using wrapping_t = typename std::conditional_t<std::is_integral_v<T> && std::is_signed_v<T>,
                                               std::make_unsigned<T>, std::type_identity<T>>::type;

struct Add {
  template <typename T>
  static constexpr T identity() {
    return T(0);
  }
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<wrapping_t<T>>(a) + static_cast<wrapping_t<T>>(b));
  }
};

struct Multiply {
  template <typename T>
  static constexpr T identity() {
    return T(1);
  }
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<wrapping_t<T>>(a) * static_cast<wrapping_t<T>>(b));
  }
};

// max (or min) that propagates NaN, as PyTorch's max does.
template <bool Max>
struct Extreme {
  template <typename T>
  static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) {
      return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    } else {
      return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
  }
  template <typename T>
  static T apply(T a, T b) {
    // Bitwise | keeps this branch-free, so it vectorizes as compare-and-blend.
    return ((Max ? b > a : b < a) | is_nan(b)) ? b : a;
  }
};

// Folds term(i) over i in [begin, end): kLanes interleaved partial results, combined as a
// tree, let the compiler vectorize without reassociating (and hide the add latency); the
// last end - begin mod kLanes terms, or a short row's, are then folded in one by one.
constexpr int kLanes = 32;

template <typename Op, typename Acc, typename Term>
Acc fold_chunk(int64_t begin, int64_t end, const Term& term) {
  Acc total = Op::template identity<Acc>();
  int64_t i = begin;
  if (end - begin >= kLanes) {
    Acc partial[kLanes];
    std::fill_n(partial, kLanes, Op::template identity<Acc>());
    for (; i + kLanes <= end; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) partial[k] = Op::apply(partial[k], term(i + k));
    }
    for (int width = kLanes / 2; width > 0; width /= 2) {
      for (int k = 0; k < width; ++k) partial[k] = Op::apply(partial[k], partial[k + width]);
    }
    total = partial[0];
  }
  for (; i < end; ++i) total = Op::apply(total, term(i));
  return total;
}

// Folds term(i) over i in [0, n) chunk by chunk, the chunks' results combined in order.
template <typename Op, typename Acc, typename Term>
Acc fold_row(int64_t n, const Term& term) {
  Acc total = Op::template identity<Acc>();
  for (int64_t start = 0; start < n; start += kReduceChunk) {
    total = Op::apply(total, fold_chunk<Op, Acc>(start, std::min(n, start + kReduceChunk), term));
  }
  return total;
}

// v's lanes folded as fold_chunk folds its partial results: lane k with lane k + width, the
// width halving from half the lanes to 1.
template <typename Op, typename Acc>
Acc fold_lanes(simd::Vector<Acc> v) {
  for (int64_t width = simd::kLanes<Acc> / 2; width > 0; width /= 2) {
    for (int64_t k = 0; k < width; ++k) v[k] = Op::apply(v[k], v[k + width]);
  }
  return v[0];
}

// fold_row with the terms given a vector at a time: vector_term(i) gives terms [i, i + lanes) as
// a simd::Vector<Acc>, term(i) term i alone. The kLanes partial results are whole vectors, folded
// and combined in fold_row's order, so the result has fold_row's bits. For terms the compiler
// does not vectorize well itself (an exp left fold_chunk's partial results in memory).
template <typename Op, typename Acc, typename VectorTerm, typename Term>
Acc fold_row_vectors(int64_t n, const VectorTerm& vector_term, const Term& term) {
  constexpr int64_t L = simd::kLanes<Acc>, parts = kLanes / L;
  // Local copies: what the terms capture stays in registers (not reloaded after their stores).
  const VectorTerm vector_term_here = vector_term;
  const Term term_here = term;
  Acc total = Op::template identity<Acc>();
  for (int64_t start = 0; start < n; start += kReduceChunk) {
    const int64_t end = std::min(n, start + kReduceChunk);
    Acc chunk = Op::template identity<Acc>();
    int64_t i = start;
    if (end - start >= kLanes) {
      simd::Vector<Acc> partial[parts];
      for (auto& p : partial) p = simd::Vector<Acc>{} + Op::template identity<Acc>();
      for (; i + kLanes <= end; i += kLanes) {
        for (int64_t p = 0; p < parts; ++p)
          partial[p] = Op::apply(partial[p], vector_term_here(i + p * L));
      }
      for (int64_t width = parts / 2; width > 0; width /= 2) {
        for (int64_t p = 0; p < width; ++p) partial[p] = Op::apply(partial[p], partial[p + width]);
      }
      chunk = fold_lanes<Op, Acc>(partial[0]);
    }
    for (; i < end; ++i) chunk = Op::apply(chunk, term_here(i));
    total = Op::apply(total, chunk);
  }
  return total;
}

}  // namespace accel::cpu
