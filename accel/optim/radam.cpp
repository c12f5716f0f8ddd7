// RAdam: option checks and the update as tensor ops (torch.optim.RAdam's single-tensor rule).
// While the approximated length of the second moment's moving average, rho_t, is at most 5
// its variance is intractable and the step is plain momentum SGD; beyond, Adam's step scaled
// by the rectification term.
#include "accel/optim/radam.h"

#include <cmath>

#include "accel/optim/adam_moments.h"

namespace accel::optim {

RAdam::RAdam(std::vector<OptimizerParamGroup> groups, RAdamOptions defaults)
    : Optimizer("RAdam", defaults.clone()) {
  init(std::move(groups));
}

RAdam::RAdam(std::vector<Tensor> params, RAdamOptions defaults)
    : RAdam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
            std::move(defaults)) {}

void RAdam::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const RAdamOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("epsilon", o.eps());
  check_unit_interval("beta1", std::get<0>(o.betas()));
  check_unit_interval("beta2", std::get<1>(o.betas()));
  check_non_negative("weight_decay", o.weight_decay());
}

void RAdam::update(const Tensor& param, const Tensor& grad, double grad_scale,
                   const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const RAdamOptions&>(options);
  const auto [beta1, beta2] = o.betas();
  const double step = advance_step(state);
  const Tensor& exp_avg = state_buffer(state, "exp_avg", param);
  const Tensor& exp_avg_sq = state_buffer(state, "exp_avg_sq", param);

  const Tensor g = detail::weight_decayed_gradient(param, grad, grad_scale, o.maximize(), o.lr(),
                                                   o.weight_decay(), o.decoupled_weight_decay());

  detail::update_moments(exp_avg, exp_avg_sq, g, o.betas());

  const double bias_correction1 = 1 - std::pow(beta1, step);
  const double bias_correction2 = 1 - std::pow(beta2, step);
  const double rho_inf = 2 / (1 - beta2) - 1;
  const double rho_t = rho_inf - 2 * step * std::pow(beta2, step) / bias_correction2;
  const Tensor bias_corrected_exp_avg = exp_avg.div(bias_correction1);
  if (rho_t > 5.0) {
    const double rectification =
        std::sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t));
    const Tensor adaptive_lr =
        exp_avg_sq.sqrt().add_(o.eps()).reciprocal().mul_(std::sqrt(bias_correction2));
    param.sub_(bias_corrected_exp_avg.mul(o.lr()).mul_(adaptive_lr).mul_(rectification));
  } else {
    param.sub_(bias_corrected_exp_avg.mul(o.lr()));
  }
}

}  // namespace accel::optim
