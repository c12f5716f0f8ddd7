// Adamax: option checks and the update as tensor ops (torch.optim.Adamax's single-tensor rule):
// exp_avg follows the gradient, exp_inf the decayed maximum of |gradient| + eps.
#include "accel/optim/adamax.h"

#include <cmath>

#include "accel/core/ops.h"

namespace accel::optim {

Adamax::Adamax(std::vector<OptimizerParamGroup> groups, AdamaxOptions defaults)
    : Optimizer("Adamax", defaults.clone()) {
  init(std::move(groups));
}

Adamax::Adamax(std::vector<Tensor> params, AdamaxOptions defaults)
    : Adamax(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
             std::move(defaults)) {}

void Adamax::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const AdamaxOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("epsilon", o.eps());
  check_unit_interval("beta1", std::get<0>(o.betas()));
  check_unit_interval("beta2", std::get<1>(o.betas()));
  check_non_negative("weight_decay", o.weight_decay());
}

void Adamax::update(const Tensor& param, const Tensor& grad, double grad_scale,
                    const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const AdamaxOptions&>(options);
  const auto [beta1, beta2] = o.betas();
  const double step = advance_step(state);
  const Tensor& exp_avg = state_buffer(state, "exp_avg", param);
  const Tensor& exp_inf = state_buffer(state, "exp_inf", param);
  const Tensor g = descent_gradient(param, grad, grad_scale, o.maximize(), o.weight_decay());
  exp_avg.copy_(lerp(exp_avg, g, 1 - beta1));
  exp_inf.copy_(maximum(exp_inf.mul_(beta2), g.abs().add_(o.eps())));
  const double bias_corrected_lr = o.lr() / (1 - std::pow(beta1, step));
  param.copy_(addcdiv(param, exp_avg, exp_inf, -bias_corrected_lr));
}

}  // namespace accel::optim
