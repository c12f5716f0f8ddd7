// SGD: option checks and the per-parameter call into the shared update rule (math::sgd_update).
// The momentum buffer exists only when momentum is nonzero, as in PyTorch.
#include "accel/optim/sgd.h"

#include "accel/core/backend.h"
#include "accel/core/stream.h"

namespace accel::optim {

SGD::SGD(std::vector<OptimizerParamGroup> groups, SGDOptions defaults)
    : Optimizer("SGD", defaults.clone()) {
  init(std::move(groups));
}

SGD::SGD(std::vector<Tensor> params, SGDOptions defaults)
    : SGD(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
          std::move(defaults)) {}

void SGD::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const SGDOptions&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("momentum", o.momentum());
  check_non_negative("weight_decay", o.weight_decay());
  ACCEL_CHECK(!o.nesterov() || (o.momentum() > 0 && o.dampening() == 0), name(),
              "Nesterov momentum requires a momentum and zero dampening; got momentum {} and "
              "dampening {}",
              o.momentum(), o.dampening());
}

void SGD::update(const Tensor& param, const Tensor& grad, double grad_scale,
                 const OptimizerOptions& options, ParamState& state) {
  const auto& o = static_cast<const SGDOptions&>(options);
  void* buffer = nullptr;
  bool first_step = false;
  if (o.momentum() != 0) {
    first_step = state.count("momentum_buffer") == 0;
    buffer = state_buffer(state, "momentum_buffer", param).data_ptr();
  }
  backend(param.device())
      .sgd_step(param.dtype(), param.numel(), param.data_ptr(), grad.data_ptr(), buffer,
                {o.lr(), o.momentum(), o.dampening(), o.weight_decay(), grad_scale, o.nesterov(),
                 o.maximize(), first_step},
                current_stream(param.device()));
}

}  // namespace accel::optim
