// ASGD: option checks and the update as tensor ops (torch.optim.ASGD's single-tensor rule). The
// rate eta and the averaging weight mu are float64 numbers in the state, computed after each
// step for the next one, as PyTorch keeps them.
#include "accel/optim/asgd.h"

#include <algorithm>
#include <cmath>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::optim {

ASGD::ASGD(std::vector<OptimizerParamGroup> groups, ASGDOptions defaults)
    : Optimizer("ASGD", defaults.clone()) {
  init(std::move(groups));
}

ASGD::ASGD(std::vector<Tensor> params, ASGDOptions defaults)
    : ASGD(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
           std::move(defaults)) {}

void ASGD::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const ASGDOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("lambd", o.lambd());
  check_non_negative("alpha", o.alpha());
  check_non_negative("weight_decay", o.weight_decay());
}

void ASGD::update(const Tensor& param, const Tensor& grad, double grad_scale,
                  const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const ASGDOptions&>(options);
  Tensor& eta = state["eta"];
  Tensor& mu = state["mu"];
  if (!eta.defined()) eta = scalar_tensor(o.lr(), kFloat64);
  if (!mu.defined()) mu = scalar_tensor(1.0, kFloat64);
  const double step = advance_step(state);
  const Tensor& ax = state_buffer(state, "ax", param);
  const Tensor g = descent_gradient(param, grad, grad_scale, o.maximize(), o.weight_decay());
  const double rate = eta.item<double>();
  param.mul_(1 - o.lambd() * rate).add_(g, -rate);
  const double weight = mu.item<double>();
  if (weight != 1.0) {
    ax.add_(param.sub(ax).mul_(weight));
  } else {
    ax.copy_(param);
  }
  eta.fill_(o.lr() / std::pow(1 + o.lambd() * o.lr() * step, o.alpha()));
  mu.fill_(1 / std::max(1.0, step - o.t0()));
}

}  // namespace accel::optim
