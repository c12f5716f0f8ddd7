// The gradient a test checks by hand: of sum(f(x) * weights) with respect to x, for a function
// of one tensor (weights: ones by default).
#pragma once

#include <functional>

#include "accel/accel.h"

namespace accel::testing {

inline Tensor grad_of(const std::function<Tensor(const Tensor&)>& f, const Tensor& x,
                      const Tensor& weights = {}) {
  Tensor leaf = x.clone().requires_grad_();
  const Tensor out = f(leaf);
  out.backward(weights.defined() ? weights : ones_like(out));
  return leaf.grad();
}

}  // namespace accel::testing
