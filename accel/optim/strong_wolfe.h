// The strong-Wolfe line search LBFGS runs with line_search_fn "strong_wolfe": a bracketing
// phase that widens the step until the conditions bracket a minimum, then a zoom phase that
// narrows the bracket by safeguarded cubic interpolation (Nocedal and Wright, algorithms 3.5 and
// 3.6), step for step as torch.optim.lbfgs's _strong_wolfe.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "accel/core/tensor.h"

namespace accel::optim {

// The loss and the flat gradient at step length t along the search direction.
using DirectionalEvaluation = std::function<std::pair<double, Tensor>(double t)>;

struct LineSearchResult {
  double loss;
  Tensor flat_grad;
  double t;
  int64_t func_evals;
};

// Searches along direction d from the point with `loss`, `flat_grad` and directional derivative
// gtd = flat_grad . d, starting at step t, with at most max_ls evaluations.
LineSearchResult strong_wolfe(const DirectionalEvaluation& evaluate, double t, const Tensor& d,
                              double loss, const Tensor& flat_grad, double gtd,
                              double tolerance_change, int64_t max_ls);

}  // namespace accel::optim
