// Deterministic reductions and softmax. Outputs are processed in tiles of up to kTileWidth
// adjacent outputs (o, i..i+w): the r loop walks each reduced row's run in memory order and
// the k loop across the tile vectorizes. With inner == 1 a tile is one output whose terms are
// contiguous: such rows fold fixed chunks of terms into kLanes interleaved partial results
// (which vectorize), the chunks combined in order, so long rows may fold their chunks on
// several threads and still give the same bits.
#include "accel/kernels/cpu/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/exp_shifted.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/row_exps.h"
#include "accel/kernels/cpu/row_fold.h"
#include "accel/kernels/cpu/row_tiles.h"

namespace accel::cpu {

namespace {

// Each term, or total, as it is.
struct Itself {
  template <typename A>
  A operator()(A v) const {
    return v;
  }
};

// out = finish(the fold of term(in[o, r, i]) over r with Op), in compute_t<Out>.
template <typename Op, typename Out, typename In, typename Term = Itself, typename Finish = Itself>
void fold(const In* in, Out* out, ReduceShape s, Term term = {}, Finish finish = {}) {
  using Acc = compute_t<Out>;
  auto row_term = [in, &s, term](int64_t o) {
    return [row = in + o * s.reduced, term](int64_t i) { return term(static_cast<Acc>(row[i])); };
  };
  const int64_t chunks = (s.reduced + kReduceChunk - 1) / kReduceChunk;
  if (s.inner == 1 && chunks > 1 && s.outer < get_num_threads()) {
    // Few long rows: fold their chunks in parallel, then combine each row's chunks in order
    // (the same operations as fold_row, hence the same bits).
    const auto partials = std::make_unique<Acc[]>(static_cast<size_t>(s.outer * chunks));
    parallel_for(0, s.outer * chunks, std::max<int64_t>(1, kElementwiseGrain / kReduceChunk),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t c = begin; c < end; ++c) {
                     const int64_t start = (c % chunks) * kReduceChunk;
                     partials[c] = fold_chunk<Op, Acc>(
                         start, std::min(s.reduced, start + kReduceChunk), row_term(c / chunks));
                   }
                 });
    for (int64_t o = 0; o < s.outer; ++o) {
      Acc total = Op::template identity<Acc>();
      for (int64_t c = 0; c < chunks; ++c) total = Op::apply(total, partials[o * chunks + c]);
      out[o] = static_cast<Out>(finish(total));
    }
    return;
  }
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    if constexpr (std::is_same_v<decltype(width), UnitWidth>) {
      out[out_off] = static_cast<Out>(finish(fold_row<Op, Acc>(s.reduced, row_term(out_off))));
    } else {
      Acc acc[kTileWidth];
      std::fill_n(acc, width, Op::template identity<Acc>());
      for (int64_t r = 0; r < s.reduced; ++r) {
        const In* row = in + in_off + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          acc[k] = Op::apply(acc[k], term(static_cast<Acc>(row[k])));
        }
      }
      for (int64_t k = 0; k < width; ++k) out[out_off + k] = static_cast<Out>(finish(acc[k]));
    }
  });
}

template <typename T>
void prod_backward_typed(const T* in, const T* grad, T* grad_in, ReduceShape s) {
  using C = compute_t<T>;
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    C others[kTileWidth];  // product of the row's nonzero elements
    int64_t zeros[kTileWidth];
    std::fill_n(others, width, C(1));
    std::fill_n(zeros, width, 0);
    for (int64_t r = 0; r < s.reduced; ++r) {
      const T* row = in + in_off + r * s.inner;
      for (int64_t k = 0; k < width; ++k) {
        const C v = static_cast<C>(row[k]);
        if (v == C(0)) {
          ++zeros[k];
        } else {
          others[k] *= v;
        }
      }
    }
    for (int64_t r = 0; r < s.reduced; ++r) {
      const T* row = in + in_off + r * s.inner;
      T* out = grad_in + in_off + r * s.inner;
      for (int64_t k = 0; k < width; ++k) {
        const C v = static_cast<C>(row[k]);
        const C g = static_cast<C>(grad[out_off + k]);
        C d = C(0);
        if (zeros[k] == 0) {
          d = g * (others[k] / v);
        } else if (zeros[k] == 1 && v == C(0)) {
          d = g * others[k];
        }
        out[k] = static_cast<T>(d);
      }
    }
  });
}

// ---- max / min with the index of the first extremum ----

// Whether a replaces b as the extremum: larger (Max) or smaller, or NaN where b is not. (Lane
// by lane on simd::Vectors.)
template <bool Max, typename V>
auto beats(V a, V b) {
  const auto a_is_nan = is_nan(a);
  return (Max ? a > b : a < b) | (a_is_nan & (b == b));
}

// The first index of a float or double row's extremum (NaN counting as one), in one pass: each
// vector lane keeps its running extremum and the index where it first met it; the row's is then
// the lanes' extremum at the least index that holds it, unless a term past the last whole vector
// beats it. n >= one vector's lanes, and below 2^31 for floats (indices in int32 lanes).
template <bool Max, typename T>
int64_t first_extremum_of_row(const T* row, int64_t n) {
  constexpr int64_t L = simd::kLanes<T>;
  using Index = simd::LaneMask<T>;  // integer lanes as wide as T's
  Index at;                         // the indices of the vector at hand
  for (int64_t k = 0; k < L; ++k) at[k] = k;
  simd::Vector<T> best = simd::load(row);
  Index where = at;
  int64_t i = L;
  for (; i + L <= n; i += L) {
    const simd::Vector<T> v = simd::load(row + i);
    at += L;
    const auto better = beats<Max>(v, best);
    best = better ? v : best;
    where = better ? at : where;
  }
  T value = best[0];
  int64_t index = where[0];
  for (int64_t k = 1; k < L; ++k) {
    const bool tie = best[k] == value || (is_nan(best[k]) && is_nan(value));
    if (beats<Max>(best[k], value) || (tie && where[k] < index)) {
      value = best[k];
      index = where[k];
    }
  }
  for (; i < n; ++i) {
    if (beats<Max>(row[i], value)) {
      value = row[i];
      index = i;
    }
  }
  return index;
}

// Values by a fold; each index is then the first r whose element equals the value (or is NaN
// where the value is NaN). Contiguous float or double rows take both from one vector pass.
template <bool Max, typename T>
void extremum_typed(const T* in, T* values, int64_t* indices, ReduceShape s) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (s.inner == 1 && s.reduced >= simd::kLanes<T> && s.reduced < (int64_t(1) << 31)) {
      for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto) {
        const int64_t index = first_extremum_of_row<Max>(in + in_off, s.reduced);
        if (indices != nullptr) indices[out_off] = index;
        if (values != nullptr) values[out_off] = in[in_off + index];
      });
      return;
    }
  }
  std::unique_ptr<T[]> scratch;
  if (values == nullptr) {
    scratch = std::make_unique<T[]>(static_cast<size_t>(s.outer * s.inner));
    values = scratch.get();
  }
  fold<Extreme<Max>>(in, values, s);
  if (indices == nullptr) return;
  using C = compute_t<T>;
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    for (int64_t k = 0; k < width; ++k) {
      const C target = static_cast<C>(values[out_off + k]);
      const T* column = in + in_off + k;
      auto is_target = [&](int64_t r) {
        const C v = static_cast<C>(column[r * s.inner]);
        return v == target || (is_nan(v) && is_nan(target));
      };
      int64_t r = 0;
      while (r + 1 < s.reduced && !is_target(r)) ++r;
      indices[out_off + k] = r;
    }
  });
}

template <typename T>
void scatter_reduced_typed(const T* grad, const int64_t* indices, T* grad_in, ReduceShape s) {
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    for (int64_t k = 0; k < width; ++k) {
      grad_in[in_off + indices[out_off + k] * s.inner + k] = grad[out_off + k];
    }
  });
}

// ---- variance ----

template <typename T>
void moments_typed(const T* in, T* out, T* mean_out, ReduceShape s, int64_t correction,
                   bool take_sqrt) {
  const double divisor = static_cast<double>(std::max<int64_t>(0, s.reduced - correction));
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    double mean[kTileWidth];
    double m2[kTileWidth];
    const T* x = in + in_off;
    if constexpr (std::is_same_v<decltype(width), UnitWidth>) {
      mean[0] =
          fold_row<Add, double>(s.reduced, [x](int64_t i) { return static_cast<double>(x[i]); }) /
          static_cast<double>(s.reduced);
      m2[0] = fold_row<Add, double>(s.reduced, [x, m = mean[0]](int64_t i) {
        const double d = static_cast<double>(x[i]) - m;
        return d * d;
      });
    } else {
      std::fill_n(mean, width, 0.0);
      std::fill_n(m2, width, 0.0);
      for (int64_t r = 0; r < s.reduced; ++r) {
        const T* row = x + r * s.inner;
        for (int64_t k = 0; k < width; ++k) mean[k] += static_cast<double>(row[k]);
      }
      for (int64_t k = 0; k < width; ++k) mean[k] /= static_cast<double>(s.reduced);
      for (int64_t r = 0; r < s.reduced; ++r) {
        const T* row = x + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          const double d = static_cast<double>(row[k]) - mean[k];
          m2[k] += d * d;
        }
      }
    }
    for (int64_t k = 0; k < width; ++k) {
      const double var = m2[k] / divisor;
      out[out_off + k] = static_cast<T>(take_sqrt ? std::sqrt(var) : var);
      if (mean_out != nullptr) mean_out[out_off + k] = static_cast<T>(mean[k]);
    }
  });
}

// ---- logsumexp and softmax: exp of the terms shifted by their maximum ----

// Whether a tile is one contiguous row in the compute type: such rows run as vectorizable
// passes over the row (sums folded like sum's), other tiles vectorize across the tile.
template <typename T, typename W>
inline constexpr bool is_plain_row_v =
    std::is_same_v<W, UnitWidth>&& std::is_same_v<T, compute_t<T>>;

// m[k] = max over r of the tile's terms: NaN if any is NaN, -inf when there are none.
template <typename C, typename T, typename W>
void tile_max(const T* in, ReduceShape s, W width, C* m) {
  std::fill_n(m, width, Extreme<true>::identity<C>());
  for (int64_t r = 0; r < s.reduced; ++r) {
    const T* row = in + r * s.inner;
    for (int64_t k = 0; k < width; ++k) m[k] = Extreme<true>::apply(m[k], static_cast<C>(row[k]));
  }
}

// An infinite maximum would give inf - inf: shift by 0 instead, as PyTorch does.
template <typename C>
C finite_shift(C max) {
  return std::isinf(max) ? C(0) : max;
}

template <typename T>
void logsumexp_typed(const T* in, T* out, ReduceShape s) {
  using C = compute_t<T>;
  for_each_tile(s, [&](int64_t in_off, int64_t out_off, auto width) {
    const T* x = in + in_off;
    if constexpr (is_plain_row_v<T, decltype(width)>) {
      const C shift = finite_shift(row_max<C>(x, s.reduced));
      const C total = sum_of_exps(x, shift, s.reduced);
      out[out_off] = static_cast<T>(std::log(total) + shift);
    } else {
      C shift[kTileWidth];
      C total[kTileWidth];
      tile_max(x, s, width, shift);
      for (int64_t k = 0; k < width; ++k) {
        shift[k] = finite_shift(shift[k]);
        total[k] = C(0);
      }
      for (int64_t r = 0; r < s.reduced; ++r) {
        const T* row = x + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          total[k] += exp_shifted(static_cast<C>(row[k]) - shift[k]);
        }
      }
      for (int64_t k = 0; k < width; ++k) {
        out[out_off + k] = static_cast<T>(std::log(total[k]) + shift[k]);
      }
    }
  });
}

template <bool Log, typename T>
void softmax_typed(const T* in, T* out, ReduceShape s) {
  using C = compute_t<T>;
  for_each_tile(s, [&](int64_t off, int64_t, auto width) {
    const T* x = in + off;
    T* y = out + off;
    const int64_t n = s.reduced;
    if constexpr (is_plain_row_v<T, decltype(width)>) {
      const C m = row_max<C>(x, n);
      const C total = store_exps(x, m, y, n);
      if constexpr (Log) {
        const C log_total = std::log(total);
        for (int64_t i = 0; i < n; ++i) y[i] = x[i] - m - log_total;
      } else {
        scale_row(y, C(1) / total, n);
      }
    } else {
      C m[kTileWidth];
      C total[kTileWidth];
      tile_max(x, s, width, m);
      std::fill_n(total, width, C(0));
      for (int64_t r = 0; r < n; ++r) {
        const T* row = x + r * s.inner;
        for (int64_t k = 0; k < width; ++k) total[k] += exp_shifted(static_cast<C>(row[k]) - m[k]);
      }
      for (int64_t k = 0; k < width; ++k) total[k] = Log ? std::log(total[k]) : C(1) / total[k];
      for (int64_t r = 0; r < n; ++r) {
        const T* row = x + r * s.inner;
        T* dst = y + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          const C shifted = static_cast<C>(row[k]) - m[k];
          dst[k] = static_cast<T>(Log ? shifted - total[k] : exp_shifted(shifted) * total[k]);
        }
      }
    }
  });
}

template <bool Log, typename T>
void softmax_backward_typed(const T* grad, const T* out, T* grad_in, ReduceShape s) {
  using C = compute_t<T>;
  for_each_tile(s, [&](int64_t off, int64_t, auto width) {
    const T* g = grad + off;
    const T* y = out + off;
    T* dx = grad_in + off;
    const int64_t n = s.reduced;
    if constexpr (is_plain_row_v<T, decltype(width)>) {
      if constexpr (Log) {
        const C total = fold_row<Add, C>(n, [g](int64_t i) { return g[i]; });
        for (int64_t i = 0; i < n; ++i) dx[i] = g[i] - exp_shifted(y[i]) * total;
      } else {
        const C total = fold_row<Add, C>(n, [g, y](int64_t i) { return g[i] * y[i]; });
        for (int64_t i = 0; i < n; ++i) dx[i] = y[i] * (g[i] - total);
      }
    } else {
      C total[kTileWidth];  // sum(grad * out) for softmax, sum(grad) for log_softmax
      std::fill_n(total, width, C(0));
      for (int64_t r = 0; r < n; ++r) {
        const T* gr = g + r * s.inner;
        const T* yr = y + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          total[k] += Log ? static_cast<C>(gr[k]) : static_cast<C>(gr[k]) * static_cast<C>(yr[k]);
        }
      }
      for (int64_t r = 0; r < n; ++r) {
        const T* gr = g + r * s.inner;
        const T* yr = y + r * s.inner;
        T* dst = dx + r * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          const C gk = static_cast<C>(gr[k]);
          const C yk = static_cast<C>(yr[k]);
          dst[k] = static_cast<T>(Log ? gk - exp_shifted(yk) * total[k] : yk * (gk - total[k]));
        }
      }
    }
  });
}

}  // namespace

void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape) {
  dispatch_numeric(out_type, "sum", [&]<typename Out>() {
    dispatch_all(in_type, "sum", [&]<typename In>() {
      fold<Add>(static_cast<const In*>(in), static_cast<Out*>(out), shape);
    });
  });
}

void two_norm(ScalarType type, const void* in, void* out, ReduceShape shape) {
  dispatch_floating(type, "norm", [&]<typename T>() {
    fold<Add>(
        static_cast<const T*>(in), static_cast<T*>(out), shape, [](auto v) { return v * v; },
        [](auto total) { return std::sqrt(total); });
  });
}

void prod(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape) {
  dispatch_numeric(out_type, "prod", [&]<typename Out>() {
    dispatch_all(in_type, "prod", [&]<typename In>() {
      fold<Multiply>(static_cast<const In*>(in), static_cast<Out*>(out), shape);
    });
  });
}

void prod_backward(ScalarType type, const void* in, const void* grad, void* grad_in,
                   ReduceShape shape) {
  dispatch_floating(type, "prod", [&]<typename T>() {
    prod_backward_typed(static_cast<const T*>(in), static_cast<const T*>(grad),
                        static_cast<T*>(grad_in), shape);
  });
}

void extremum(Extremum kind, ScalarType type, const void* in, void* values, int64_t* indices,
              ReduceShape shape) {
  dispatch_all(type, kind == Extremum::Max ? "max" : "min", [&]<typename T>() {
    if (kind == Extremum::Max) {
      extremum_typed<true>(static_cast<const T*>(in), static_cast<T*>(values), indices, shape);
    } else {
      extremum_typed<false>(static_cast<const T*>(in), static_cast<T*>(values), indices, shape);
    }
  });
}

void scatter_reduced(ScalarType type, const void* grad, const int64_t* indices, void* grad_in,
                     ReduceShape shape) {
  dispatch_floating(type, "scatter_reduced", [&]<typename T>() {
    scatter_reduced_typed(static_cast<const T*>(grad), indices, static_cast<T*>(grad_in), shape);
  });
}

void moments(ScalarType type, const void* in, void* out, void* mean, ReduceShape shape,
             int64_t correction, bool take_sqrt) {
  dispatch_floating(type, take_sqrt ? "std" : "var", [&]<typename T>() {
    moments_typed(static_cast<const T*>(in), static_cast<T*>(out), static_cast<T*>(mean), shape,
                  correction, take_sqrt);
  });
}

void logsumexp(ScalarType type, const void* in, void* out, ReduceShape shape) {
  dispatch_floating(type, "logsumexp", [&]<typename T>() {
    logsumexp_typed(static_cast<const T*>(in), static_cast<T*>(out), shape);
  });
}

void softmax(ScalarType type, const void* in, void* out, ReduceShape shape, bool log) {
  dispatch_floating(type, log ? "log_softmax" : "softmax", [&]<typename T>() {
    if (log) {
      softmax_typed<true>(static_cast<const T*>(in), static_cast<T*>(out), shape);
    } else {
      softmax_typed<false>(static_cast<const T*>(in), static_cast<T*>(out), shape);
    }
  });
}

void softmax_backward(ScalarType type, const void* grad, const void* out, void* grad_in,
                      ReduceShape shape, bool log) {
  dispatch_floating(type, log ? "log_softmax_backward" : "softmax_backward", [&]<typename T>() {
    const auto* g = static_cast<const T*>(grad);
    const auto* y = static_cast<const T*>(out);
    if (log) {
      softmax_backward_typed<true>(g, y, static_cast<T*>(grad_in), shape);
    } else {
      softmax_backward_typed<false>(g, y, static_cast<T*>(grad_in), shape);
    }
  });
}

}  // namespace accel::cpu
