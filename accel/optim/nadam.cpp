// NAdam: option checks and the update as tensor ops (torch.optim.NAdam's single-tensor rule).
// The momentum coefficient mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay)) changes each
// step; their running product is the state "mu_product", a float64 number like "step".
#include "accel/optim/nadam.h"

#include <cmath>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/optim/adam_moments.h"

namespace accel::optim {
namespace {

double momentum_coefficient(double beta1, double momentum_decay, double step) {
  return beta1 * (1.0 - 0.5 * std::pow(0.96, step * momentum_decay));
}

}  // namespace

NAdam::NAdam(std::vector<OptimizerParamGroup> groups, NAdamOptions defaults)
    : Optimizer("NAdam", defaults.clone()) {
  init(std::move(groups));
}

NAdam::NAdam(std::vector<Tensor> params, NAdamOptions defaults)
    : NAdam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
            std::move(defaults)) {}

void NAdam::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const NAdamOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("epsilon", o.eps());
  check_unit_interval("beta1", std::get<0>(o.betas()));
  check_unit_interval("beta2", std::get<1>(o.betas()));
  check_non_negative("weight_decay", o.weight_decay());
  check_non_negative("momentum_decay", o.momentum_decay());
}

void NAdam::update(const Tensor& param, const Tensor& grad, double grad_scale,
                   const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const NAdamOptions&>(options);
  const auto [beta1, beta2] = o.betas();
  const double step = advance_step(state);
  const Tensor& exp_avg = state_buffer(state, "exp_avg", param);
  const Tensor& exp_avg_sq = state_buffer(state, "exp_avg_sq", param);
  Tensor& mu_product_state = state["mu_product"];
  if (!mu_product_state.defined()) mu_product_state = ones({}, kFloat64);

  const Tensor g = detail::weight_decayed_gradient(param, grad, grad_scale, o.maximize(), o.lr(),
                                                   o.weight_decay(), o.decoupled_weight_decay());

  const double mu = momentum_coefficient(beta1, o.momentum_decay(), step);
  const double mu_next = momentum_coefficient(beta1, o.momentum_decay(), step + 1);
  const double mu_product = mu_product_state.mul_(mu).item<double>();
  const double mu_product_next = mu_product * mu_next;

  detail::update_moments(exp_avg, exp_avg_sq, g, o.betas());
  const double bias_correction2 = 1 - std::pow(beta2, step);
  const Tensor denom = exp_avg_sq.div(bias_correction2).sqrt().add_(o.eps());
  param.copy_(addcdiv(param, g, denom, -o.lr() * (1 - mu) / (1 - mu_product)));
  param.copy_(addcdiv(param, exp_avg, denom, -o.lr() * mu_next / (1 - mu_product_next)));
}

}  // namespace accel::optim
