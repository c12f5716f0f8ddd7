// Cross-entropy over class indices on the CPU. Positions are processed in tiles of up to
// kTileWidth adjacent positions (o, i..i+w), whose logits for class c are one run in memory:
// the class loop walks those runs in order and the loop across the tile vectorizes. With
// inner == 1 a tile is one position, a contiguous row, folded as the reductions fold a row
// (row_fold.h), so the loop over its classes vectorizes instead. The forward takes three passes
// over a tile (maximum, sum of exps, and the smoothing sum when label smoothing applies), the
// backward one; every sum runs in a fixed order on one thread.
#include "accel/kernels/cpu/cross_entropy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/cpu/exp_shifted.h"
#include "accel/kernels/cpu/row_exps.h"
#include "accel/kernels/cpu/row_fold.h"
#include "accel/kernels/cpu/row_tiles.h"

namespace accel::cpu {

namespace {

constexpr const char* kOp = "cross_entropy";

template <typename T>
void forward_typed(const T* logits, const int64_t* target, const T* weight, T* loss, acc_t<T>* lse,
                   T* target_weight, ReduceShape s, const math::CrossEntropyScalars& scalars) {
  using A = acc_t<T>;
  const int64_t classes = s.reduced;
  for (int64_t p = 0; p < s.outer * s.inner; ++p) {
    ACCEL_CHECK(math::is_valid_class_target(target[p], classes, scalars.ignore_index), kOp,
                math::kClassTargetOutOfRange, target[p], classes, classes - 1,
                scalars.ignore_index);
  }
  for_each_tile(s, [&](int64_t first, int64_t p, auto width) {
    A shift[kTileWidth];
    A total[kTileWidth];
    A smoothing_sum[kTileWidth];
    A* const row_lse = lse + p;
    if constexpr (std::is_same_v<decltype(width), UnitWidth>) {
      // One contiguous row of classes: vectorized folds over it.
      const T* x = logits + first;
      shift[0] = math::softmax_shift(row_max<A>(x, classes));
      total[0] = sum_of_exps(x, shift[0], classes);
      row_lse[0] = shift[0] + std::log(total[0]);
      smoothing_sum[0] =
          scalars.label_smoothing == 0
              ? A(0)
              : fold_row<Add, A>(classes, [x, weight, l = row_lse[0]](int64_t c) {
                  return math::class_weight<A>(weight, c) * (static_cast<A>(x[c]) - l);
                });
    } else {
      std::fill_n(shift, width, -std::numeric_limits<A>::infinity());
      std::fill_n(total, width, A(0));
      std::fill_n(smoothing_sum, width, A(0));
      for (int64_t c = 0; c < classes; ++c) {
        const T* x = logits + first + c * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          shift[k] = math::maximum_value(shift[k], static_cast<A>(x[k]));
        }
      }
      for (int64_t k = 0; k < width; ++k) shift[k] = math::softmax_shift(shift[k]);
      // exp_shifted's argument is <= 0 (or NaN) where the maximum is finite; where it is not,
      // the log-sum-exp is infinite or NaN whatever the other terms give.
      for (int64_t c = 0; c < classes; ++c) {
        const T* x = logits + first + c * s.inner;
        for (int64_t k = 0; k < width; ++k) {
          total[k] += exp_shifted(static_cast<A>(x[k]) - shift[k]);
        }
      }
      for (int64_t k = 0; k < width; ++k) row_lse[k] = shift[k] + std::log(total[k]);
      if (scalars.label_smoothing != 0) {
        for (int64_t c = 0; c < classes; ++c) {
          const T* x = logits + first + c * s.inner;
          const A w = math::class_weight<A>(weight, c);
          for (int64_t k = 0; k < width; ++k) {
            smoothing_sum[k] += w * (static_cast<A>(x[k]) - row_lse[k]);
          }
        }
      }
    }
    for (int64_t k = 0; k < width; ++k) {
      const int64_t t = target[p + k];
      const auto terms = math::cross_entropy_terms<A>(t, weight, classes, scalars);
      const A target_log_prob =
          terms.kept ? static_cast<A>(logits[first + t * s.inner + k]) - row_lse[k] : A(0);
      loss[p + k] =
          static_cast<T>(math::cross_entropy_loss(terms, target_log_prob, smoothing_sum[k]));
      if (target_weight != nullptr) target_weight[p + k] = static_cast<T>(terms.target_weight);
    }
  });
}

template <typename T>
void backward_typed(const T* logits, const int64_t* target, const T* weight, const acc_t<T>* lse,
                    const T* grad, bool grad_is_scalar, T* grad_logits, ReduceShape s,
                    const math::CrossEntropyScalars& scalars) {
  using A = acc_t<T>;
  const int64_t classes = s.reduced;
  A weight_sum = 0;
  for (int64_t c = 0; c < classes; ++c) weight_sum += math::class_weight<A>(weight, c);
  for_each_tile(s, [&](int64_t first, int64_t p, auto width) {
    math::CrossEntropyTerms<A> terms[kTileWidth];
    A scale[kTileWidth];
    A g[kTileWidth];
    for (int64_t k = 0; k < width; ++k) {
      terms[k] = math::cross_entropy_terms<A>(target[p + k], weight, classes, scalars);
      scale[k] = math::cross_entropy_softmax_scale(terms[k], weight_sum);
      g[k] = static_cast<A>(grad[grad_is_scalar ? 0 : p + k]);
    }
    if constexpr (std::is_same_v<decltype(width), UnitWidth>) {
      // One contiguous row: every class as a non-target in one vectorized pass, then the
      // target's element again with its own term.
      const T* x = logits + first;
      T* dx = grad_logits + first;
      const math::CrossEntropyTerms<A>& t = terms[0];
      const A row_lse = lse[p];
      if (!t.kept) {
        std::fill_n(dx, classes, T(0));
        return;
      }
      auto grad_at = [&](int64_t c, bool is_target) {
        const A prob = exp_shifted(static_cast<A>(x[c]) - row_lse);
        return static_cast<T>(math::cross_entropy_grad(
            t, scale[0], g[0], prob, math::class_weight<A>(weight, c), is_target));
      };
      if (weight == nullptr && t.spread == A(0)) {
        // The common case, written out so that it vectorizes (cross_entropy_grad's value).
        for (int64_t c = 0; c < classes; ++c) {
          dx[c] = static_cast<T>(g[0] * (exp_shifted(static_cast<A>(x[c]) - row_lse) * scale[0]));
        }
      } else {
        for (int64_t c = 0; c < classes; ++c) dx[c] = grad_at(c, false);
      }
      dx[target[p]] = grad_at(target[p], true);
      return;
    }
    for (int64_t c = 0; c < classes; ++c) {
      const T* x = logits + first + c * s.inner;
      T* dx = grad_logits + first + c * s.inner;
      const A w = math::class_weight<A>(weight, c);
      for (int64_t k = 0; k < width; ++k) {
        // <= 0 (or NaN): lse is at least the row's maximum, its sum of exps at least exp(0).
        const A prob = exp_shifted(static_cast<A>(x[k]) - lse[p + k]);
        dx[k] = static_cast<T>(
            math::cross_entropy_grad(terms[k], scale[k], g[k], prob, w, c == target[p + k]));
      }
    }
  });
}

}  // namespace

void cross_entropy_forward(ScalarType type, const void* logits, const int64_t* target,
                           const void* weight, void* loss, void* lse, void* target_weight,
                           ReduceShape shape, const math::CrossEntropyScalars& s) {
  dispatch_floating(type, kOp, [&]<typename T>() {
    forward_typed(static_cast<const T*>(logits), target, static_cast<const T*>(weight),
                  static_cast<T*>(loss), static_cast<acc_t<T>*>(lse),
                  static_cast<T*>(target_weight), shape, s);
  });
}

void cross_entropy_backward(ScalarType type, const void* logits, const int64_t* target,
                            const void* weight, const void* lse, const void* grad,
                            bool grad_is_scalar, void* grad_logits, ReduceShape shape,
                            const math::CrossEntropyScalars& s) {
  dispatch_floating(type, kOp, [&]<typename T>() {
    backward_typed(static_cast<const T*>(logits), target, static_cast<const T*>(weight),
                   static_cast<const acc_t<T>*>(lse), static_cast<const T*>(grad), grad_is_scalar,
                   static_cast<T*>(grad_logits), shape, s);
  });
}

}  // namespace accel::cpu
