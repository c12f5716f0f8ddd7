// Adadelta: option checks and the update as tensor ops (torch.optim.Adadelta's single-tensor
// rule): square_avg averages squared gradients, acc_delta squared updates.
#include "accel/optim/adadelta.h"

#include "accel/core/ops.h"

namespace accel::optim {

Adadelta::Adadelta(std::vector<OptimizerParamGroup> groups, AdadeltaOptions defaults)
    : Optimizer("Adadelta", defaults.clone()) {
  init(std::move(groups));
}

Adadelta::Adadelta(std::vector<Tensor> params, AdadeltaOptions defaults)
    : Adadelta(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
               std::move(defaults)) {}

void Adadelta::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const AdadeltaOptions&>(options);
  check_non_negative("learning rate", o.lr());
  // As PyTorch, rho = 1 is allowed (the averages then keep their initial zeros).
  ACCEL_CHECK(o.rho() >= 0.0 && o.rho() <= 1.0, name(), "invalid rho: {} (expected in [0, 1])",
              o.rho());
  check_non_negative("epsilon", o.eps());
  check_non_negative("weight_decay", o.weight_decay());
}

void Adadelta::update(const Tensor& param, const Tensor& grad, double grad_scale,
                      const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const AdadeltaOptions&>(options);
  const double rho = o.rho();
  advance_step(state);
  const Tensor& square_avg = state_buffer(state, "square_avg", param);
  const Tensor& acc_delta = state_buffer(state, "acc_delta", param);
  const Tensor g = descent_gradient(param, grad, grad_scale, o.maximize(), o.weight_decay());
  square_avg.copy_(addcmul(square_avg.mul_(rho), g, g, 1 - rho));
  const Tensor grad_rms = square_avg.add(o.eps()).sqrt();
  const Tensor delta = acc_delta.add(o.eps()).sqrt().div_(grad_rms).mul_(g);
  acc_delta.copy_(addcmul(acc_delta.mul_(rho), delta, delta, 1 - rho));
  param.add_(delta, -o.lr());
}

}  // namespace accel::optim
