// The optimizer update rules (SGD, Adam/AdamW, RMSprop, Adagrad), each written once as an
// element-wise function of one parameter element, its gradient and its state, so the CPU loop
// and a fused CUDA kernel apply the same formulas as PyTorch's single-tensor implementations.
#pragma once

#include <cmath>

#include "accel/base/macros.h"

namespace accel::math {

// Per-step constants of each rule. grad_scale multiplies the gradient first (the inverse loss
// scale of mixed precision; 1 otherwise).
template <typename A>
struct SgdScalars {
  A lr, momentum, dampening, weight_decay, grad_scale;
  bool nesterov, maximize;
  bool first_step;  // the momentum buffer starts as the first gradient, as PyTorch's
  template <typename B>
  ACCEL_INLINE SgdScalars<B> as() const {
    return {B(lr),         B(momentum), B(dampening), B(weight_decay),
            B(grad_scale), nesterov,    maximize,     first_step};
  }
};

template <typename A>
struct AdamScalars {
  A lr, beta1, beta2, eps, weight_decay, grad_scale;
  A step_size;                  // lr / (1 - beta1^step)
  A bias_correction2_sqrt;      // sqrt(1 - beta2^step)
  bool decoupled_weight_decay;  // AdamW: p *= 1 - lr * weight_decay instead of an L2 term
  bool amsgrad, maximize;
  template <typename B>
  ACCEL_INLINE AdamScalars<B> as() const {
    return {B(lr),
            B(beta1),
            B(beta2),
            B(eps),
            B(weight_decay),
            B(grad_scale),
            B(step_size),
            B(bias_correction2_sqrt),
            decoupled_weight_decay,
            amsgrad,
            maximize};
  }
};

template <typename A>
struct RmspropScalars {
  A lr, alpha, eps, weight_decay, momentum, grad_scale;
  bool centered, maximize;
  template <typename B>
  ACCEL_INLINE RmspropScalars<B> as() const {
    return {B(lr),       B(alpha),      B(eps),   B(weight_decay),
            B(momentum), B(grad_scale), centered, maximize};
  }
};

template <typename A>
struct AdagradScalars {
  A clr;  // adagrad_clr(lr, lr_decay, step)
  A eps, weight_decay, grad_scale;
  bool maximize;
  template <typename B>
  ACCEL_INLINE AdagradScalars<B> as() const {
    return {B(clr), B(eps), B(weight_decay), B(grad_scale), maximize};
  }
};

// The gradient as every rule first sees it: unscaled, negated when maximizing.
template <typename A>
ACCEL_INLINE A effective_grad(A g, A grad_scale, bool maximize) {
  g = g * grad_scale;
  return maximize ? -g : g;
}

template <typename A>
ACCEL_INLINE void sgd_update(A& p, A g, A& buf, const SgdScalars<A>& s) {
  g = effective_grad(g, s.grad_scale, s.maximize);
  if (s.weight_decay != A(0)) g = g + s.weight_decay * p;
  if (s.momentum != A(0)) {
    buf = s.first_step ? g : buf * s.momentum + (A(1) - s.dampening) * g;
    g = s.nesterov ? g + s.momentum * buf : buf;
  }
  p = p - s.lr * g;
}

// Fills in the bias corrections for `step` (counted from 1), in double as PyTorch's host math.
ACCEL_INLINE AdamScalars<double> adam_step_scalars(AdamScalars<double> s, double step) {
  s.step_size = s.lr / (1.0 - std::pow(s.beta1, step));
  s.bias_correction2_sqrt = std::sqrt(1.0 - std::pow(s.beta2, step));
  return s;
}

ACCEL_INLINE double adagrad_clr(double lr, double lr_decay, double step) {
  return lr / (1.0 + (step - 1.0) * lr_decay);
}

template <typename A>
ACCEL_INLINE void adam_update(A& p, A g, A& exp_avg, A& exp_avg_sq, A& max_exp_avg_sq,
                              const AdamScalars<A>& s) {
  g = effective_grad(g, s.grad_scale, s.maximize);
  if (s.decoupled_weight_decay) {
    p = p * (A(1) - s.lr * s.weight_decay);
  } else if (s.weight_decay != A(0)) {
    g = g + s.weight_decay * p;
  }
  exp_avg = exp_avg + (A(1) - s.beta1) * (g - exp_avg);
  exp_avg_sq = exp_avg_sq * s.beta2 + (A(1) - s.beta2) * g * g;
  A second_moment = exp_avg_sq;
  if (s.amsgrad) {
    max_exp_avg_sq = max_exp_avg_sq > exp_avg_sq ? max_exp_avg_sq : exp_avg_sq;
    second_moment = max_exp_avg_sq;
  }
  const A denom = std::sqrt(second_moment) / s.bias_correction2_sqrt + s.eps;
  p = p - s.step_size * exp_avg / denom;
}

template <typename A>
ACCEL_INLINE void rmsprop_update(A& p, A g, A& square_avg, A& grad_avg, A& buf,
                                 const RmspropScalars<A>& s) {
  g = effective_grad(g, s.grad_scale, s.maximize);
  if (s.weight_decay != A(0)) g = g + s.weight_decay * p;
  square_avg = square_avg * s.alpha + (A(1) - s.alpha) * g * g;
  A avg;
  if (s.centered) {
    grad_avg = grad_avg + (A(1) - s.alpha) * (g - grad_avg);
    avg = std::sqrt(square_avg - grad_avg * grad_avg);
  } else {
    avg = std::sqrt(square_avg);
  }
  avg = avg + s.eps;
  if (s.momentum > A(0)) {
    buf = buf * s.momentum + g / avg;
    p = p - s.lr * buf;
  } else {
    p = p - s.lr * g / avg;
  }
}

template <typename A>
ACCEL_INLINE void adagrad_update(A& p, A g, A& sum, const AdagradScalars<A>& s) {
  g = effective_grad(g, s.grad_scale, s.maximize);
  if (s.weight_decay != A(0)) g = g + s.weight_decay * p;
  sum = sum + g * g;
  p = p - s.clr * g / (std::sqrt(sum) + s.eps);
}

}  // namespace accel::math
