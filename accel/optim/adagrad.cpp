// Adagrad: option checks and the per-parameter call into math::adagrad_update; the squared-
// gradient sum starts at initial_accumulator_value.
#include "accel/optim/adagrad.h"

#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/stream.h"

namespace accel::optim {

Adagrad::Adagrad(std::vector<OptimizerParamGroup> groups, AdagradOptions defaults)
    : Optimizer("Adagrad", defaults.clone()) {
  init(std::move(groups));
}

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions defaults)
    : Adagrad(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
              std::move(defaults)) {}

void Adagrad::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const AdagradOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("lr_decay", o.lr_decay());
  check_non_negative("weight_decay", o.weight_decay());
  check_non_negative("initial_accumulator_value", o.initial_accumulator_value());
  check_non_negative("epsilon", o.eps());
}

void Adagrad::update(const Tensor& param, const Tensor& grad, double grad_scale,
                     const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const AdagradOptions&>(options);
  const double step = advance_step(state);
  Tensor& sum = state["sum"];
  if (!sum.defined()) {
    sum = full_like(param, o.initial_accumulator_value());
  } else if (sum.device() != param.device()) {
    sum = sum.to(param.device());  // the model moved since the last step
  }
  backend(param.device())
      .adagrad_step(param.dtype(), param.numel(), param.data_ptr(), grad.data_ptr(), sum.data_ptr(),
                    {math::adagrad_clr(o.lr(), o.lr_decay(), step), o.eps(), o.weight_decay(),
                     grad_scale, o.maximize()},
                    current_stream(param.device()));
}

}  // namespace accel::optim
