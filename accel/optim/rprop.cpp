// Rprop: option checks and the update as tensor ops (torch.optim.Rprop's single-tensor rule):
// step_size grows by etaplus where gradient * prev > 0, shrinks by etaminus where it is < 0 (and
// that element then stands still, remembering a zero gradient), and each element moves by its
// step size against its gradient's sign.
#include "accel/optim/rprop.h"

#include "accel/core/ops.h"

namespace accel::optim {

Rprop::Rprop(std::vector<OptimizerParamGroup> groups, RpropOptions defaults)
    : Optimizer("Rprop", defaults.clone()) {
  init(std::move(groups));
}

Rprop::Rprop(std::vector<Tensor> params, RpropOptions defaults)
    : Rprop(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
            std::move(defaults)) {}

void Rprop::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const RpropOptions&>(options);
  check_non_negative("learning rate", o.lr());
  const auto [etaminus, etaplus] = o.etas();
  ACCEL_CHECK(0.0 < etaminus && etaminus < 1.0 && 1.0 < etaplus, name(),
              "invalid etas: ({}, {}) (expected 0 < etaminus < 1 < etaplus)", etaminus, etaplus);
  const auto [min_step, max_step] = o.step_sizes();
  ACCEL_CHECK(0.0 <= min_step && min_step <= max_step, name(),
              "invalid step_sizes: ({}, {}) (expected 0 <= minimum <= maximum)", min_step,
              max_step);
}

void Rprop::update(const Tensor& param, const Tensor& grad, double grad_scale,
                   const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const RpropOptions&>(options);
  const auto [etaminus, etaplus] = o.etas();
  const auto [min_step, max_step] = o.step_sizes();
  const bool fresh = !state.contains("step_size");
  advance_step(state);
  const Tensor& prev = state_buffer(state, "prev", param);
  const Tensor& step_size = state_buffer(state, "step_size", param);
  if (fresh) step_size.fill_(o.lr());
  const Tensor g = descent_gradient(param, grad, grad_scale, o.maximize(), 0.0);
  // As PyTorch: a NaN product keeps its NaN factor (neither mask holds).
  const Tensor agreement = g.mul(prev).sign();
  const Tensor flipped = agreement.lt(0);
  const Tensor factor = agreement.masked_fill(agreement.gt(0), etaplus)
                            .masked_fill(flipped, etaminus)
                            .masked_fill(agreement.eq(0), 1);
  step_size.mul_(factor).clamp_(min_step, max_step);
  const Tensor descent = g.masked_fill(flipped, 0);
  param.copy_(addcmul(param, descent.sign(), step_size, -1));
  prev.copy_(descent);
}

}  // namespace accel::optim
