// RMSprop: option checks and the per-parameter call into math::rmsprop_update. The momentum
// buffer and the gradient average exist only when momentum / centered ask for them.
#include "accel/optim/rmsprop.h"

#include "accel/core/backend.h"
#include "accel/core/stream.h"

namespace accel::optim {

RMSprop::RMSprop(std::vector<OptimizerParamGroup> groups, RMSpropOptions defaults)
    : Optimizer("RMSprop", defaults.clone()) {
  init(std::move(groups));
}

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions defaults)
    : RMSprop(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
              std::move(defaults)) {}

void RMSprop::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const RMSpropOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("epsilon", o.eps());
  check_non_negative("alpha", o.alpha());
  check_non_negative("momentum", o.momentum());
  check_non_negative("weight_decay", o.weight_decay());
}

void RMSprop::update(const Tensor& param, const Tensor& grad, double grad_scale,
                     const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const RMSpropOptions&>(options);
  advance_step(state);
  void* square_avg = state_buffer(state, "square_avg", param).data_ptr();
  void* grad_avg = o.centered() ? state_buffer(state, "grad_avg", param).data_ptr() : nullptr;
  void* buffer =
      o.momentum() > 0 ? state_buffer(state, "momentum_buffer", param).data_ptr() : nullptr;
  backend(param.device())
      .rmsprop_step(param.dtype(), param.numel(), param.data_ptr(), grad.data_ptr(), square_avg,
                    grad_avg, buffer,
                    {o.lr(), o.alpha(), o.eps(), o.weight_decay(), o.momentum(), grad_scale,
                     o.centered(), o.maximize()},
                    current_stream(param.device()));
}

}  // namespace accel::optim
