// The steps NAdam and RAdam share with Adam, written as tensor ops on the parameter's device:
// the weight-decayed gradient (L2 or decoupled) and the update of the two moment estimates.
#pragma once

#include "accel/optim/adam.h"

namespace accel::optim::detail {

// The gradient to descend (descent_gradient's rule) with weight decay applied either as an L2
// term added to it or, when decoupled, as param *= 1 - lr * weight_decay before the update.
Tensor weight_decayed_gradient(const Tensor& param, const Tensor& grad, double grad_scale,
                               bool maximize, double lr, double weight_decay, bool decoupled);

// exp_avg = lerp(exp_avg, g, 1 - beta1); exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * g * g.
void update_moments(const Tensor& exp_avg, const Tensor& exp_avg_sq, const Tensor& g,
                    const Betas& betas);

}  // namespace accel::optim::detail
