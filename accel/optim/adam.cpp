// Adam and AdamW: option checks and the per-parameter call into math::adam_update, with the
// bias corrections computed from the parameter's step count (math::adam_step_scalars).
#include "accel/optim/adam.h"

#include "accel/core/backend.h"
#include "accel/core/stream.h"

namespace accel::optim {

namespace detail {

template <typename Options, bool kDecoupledWeightDecay>
void AdamFamily<Options, kDecoupledWeightDecay>::check_options(
    const OptimizerOptions& options) const {
  const auto& o = static_cast<const Options&>(options);
  check_non_negative("learning rate", o.lr());
  check_non_negative("epsilon", o.eps());
  check_unit_interval("beta1", std::get<0>(o.betas()));
  check_unit_interval("beta2", std::get<1>(o.betas()));
  check_non_negative("weight_decay", o.weight_decay());
}

template <typename Options, bool kDecoupledWeightDecay>
void AdamFamily<Options, kDecoupledWeightDecay>::update(const Tensor& param, const Tensor& grad,
                                                        double grad_scale,
                                                        const OptimizerOptions& options,
                                                        ParamState& state) {
  const auto& o = static_cast<const Options&>(options);
  const double step = advance_step(state);
  void* exp_avg = state_buffer(state, "exp_avg", param).data_ptr();
  void* exp_avg_sq = state_buffer(state, "exp_avg_sq", param).data_ptr();
  void* max_exp_avg_sq =
      o.amsgrad() ? state_buffer(state, "max_exp_avg_sq", param).data_ptr() : nullptr;
  math::AdamScalars<double> s{};
  s.lr = o.lr();
  s.beta1 = std::get<0>(o.betas());
  s.beta2 = std::get<1>(o.betas());
  s.eps = o.eps();
  s.weight_decay = o.weight_decay();
  s.grad_scale = grad_scale;
  s.decoupled_weight_decay = kDecoupledWeightDecay;
  s.amsgrad = o.amsgrad();
  s.maximize = o.maximize();
  backend(param.device())
      .adam_step(param.dtype(), param.numel(), param.data_ptr(), grad.data_ptr(), exp_avg,
                 exp_avg_sq, max_exp_avg_sq, math::adam_step_scalars(s, step),
                 current_stream(param.device()));
}

template class AdamFamily<AdamOptions, false>;
template class AdamFamily<AdamWOptions, true>;

}  // namespace detail

Adam::Adam(std::vector<OptimizerParamGroup> groups, AdamOptions defaults)
    : AdamFamily("Adam", defaults.clone()) {
  init(std::move(groups));
}

Adam::Adam(std::vector<Tensor> params, AdamOptions defaults)
    : Adam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
           std::move(defaults)) {}

AdamW::AdamW(std::vector<OptimizerParamGroup> groups, AdamWOptions defaults)
    : AdamFamily("AdamW", defaults.clone()) {
  init(std::move(groups));
}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions defaults)
    : AdamW(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
            std::move(defaults)) {}

}  // namespace accel::optim
