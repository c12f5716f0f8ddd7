// Cross-entropy over class indices at one position, written once for the CPU loop and the CUDA
// kernels (contract in kernels/backend.h). For a position with logits x_c over C classes,
// lse = log sum_c exp(x_c), target t of weight w_t (weight[t], or 1 without class weights),
// k = 1 unless the target is ignored (then w_t = k = 0), class weights W_c and label smoothing
// e, PyTorch's cross_entropy and its gradient are
//   loss = -(1-e) w_t (x_t - lse) - e/C k sum_c W_c (x_c - lse)
//   d loss / d x_c = p_c ((1-e) w_t + e/C k sum_c W_c) - (1-e) w_t [c = t] - e/C k W_c,
// with p_c = exp(x_c - lse) recomputed from the saved lse, so probabilities are never stored.
// Arguments arrive in the accumulate type A (float for Half/BFloat16 and float32, double for
// float64).
#pragma once

#include <cstdint>

#include "accel/base/macros.h"

namespace accel::math {

// What a cross-entropy call knows besides its tensors.
struct CrossEntropyScalars {
  int64_t ignore_index;
  double label_smoothing;  // e, in [0, 1]
};

// The message for a target that is neither a class nor the ignore_index, formatted with the
// target, C, C - 1 and the ignore_index: the CPU raises it at once, a device at the next
// synchronization, nll_loss's host check before it gathers.
inline constexpr char kClassTargetOutOfRange[] =
    "target {} is out of bounds for {} classes (valid: 0..{}, or ignore_index {})";

ACCEL_INLINE bool is_valid_class_target(int64_t target, int64_t classes, int64_t ignore_index) {
  return target == ignore_index || (target >= 0 && target < classes);
}

// W_c: weight[c], or 1 without class weights (weight null).
template <typename A, typename T>
ACCEL_INLINE A class_weight(const T* weight, int64_t c) {
  return weight == nullptr ? A(1) : static_cast<A>(weight[c]);
}

// What log-sum-exp subtracts from every logit before exponentiating: the row's maximum, or 0
// when that is infinite or NaN (shifting by an infinity would turn every term into NaN).
template <typename A>
ACCEL_INLINE A softmax_shift(A max) {
  return max - max == A(0) ? max : A(0);
}

// One position's coefficients, from its target.
template <typename A>
struct CrossEntropyTerms {
  bool kept;        // the target counts: not ignored (and, on a device, not out of range)
  A target_weight;  // w_t; 0 when not kept
  A pick;           // (1-e) w_t: the target class's coefficient
  A spread;         // e/C k: every class's coefficient per unit of its weight
};

// A target outside [0, classes) counts as ignored here: the kernels report it (the CPU before
// it starts), and must not read through it.
template <typename A, typename T>
ACCEL_INLINE CrossEntropyTerms<A> cross_entropy_terms(int64_t target, const T* weight,
                                                      int64_t classes,
                                                      const CrossEntropyScalars& s) {
  const bool kept = target != s.ignore_index && target >= 0 && target < classes;
  const A w = kept ? class_weight<A>(weight, target) : A(0);
  const A e = static_cast<A>(s.label_smoothing);
  return {kept, w, (A(1) - e) * w, kept ? e / static_cast<A>(classes) : A(0)};
}

// The position's loss from the target's log-probability x_t - lse and the smoothing sum
// sum_c W_c (x_c - lse), which is read only when smoothing applies. An ignored position's
// loss is 0, whatever its logits.
template <typename A>
ACCEL_INLINE A cross_entropy_loss(const CrossEntropyTerms<A>& t, A target_log_prob,
                                  A smoothing_sum) {
  if (!t.kept) return A(0);
  const A loss = -(t.pick * target_log_prob);
  return t.spread == A(0) ? loss : loss - t.spread * smoothing_sum;
}

// What the position's softmax is scaled by in its gradient: (1-e) w_t + e/C k sum_c W_c.
template <typename A>
ACCEL_INLINE A cross_entropy_softmax_scale(const CrossEntropyTerms<A>& t, A weight_sum) {
  return t.spread == A(0) ? t.pick : t.pick + t.spread * weight_sum;
}

// g * d loss / d x_c, from the class's probability p_c = exp(x_c - lse) (each kernel takes the
// exponential its device computes best), its weight W_c and whether c is the target; an
// ignored position passes no gradient.
template <typename A>
ACCEL_INLINE A cross_entropy_grad(const CrossEntropyTerms<A>& t, A softmax_scale, A g, A prob,
                                  A weight_c, bool is_target) {
  if (!t.kept) return A(0);
  A d = prob * softmax_scale;
  if (is_target) d -= t.pick;
  if (t.spread != A(0)) d -= t.spread * weight_c;
  return g * d;
}

}  // namespace accel::math
