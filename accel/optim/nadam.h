// NAdam (Adam with Nesterov momentum and a momentum schedule), with L2 or decoupled weight
// decay, matching torch.optim.NAdam. The update is a composition of tensor ops on the
// parameter's device, so it runs on every device with no kernel of its own.
#pragma once

#include "accel/optim/adam.h"

namespace accel::optim {

class NAdamOptions : public OptimizerCloneableOptions<NAdamOptions> {
 public:
  explicit NAdamOptions(double lr = 2e-3) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return std::get<0>(betas_); }
  void set_momentum(double beta1) override { std::get<0>(betas_) = beta1; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(Betas, betas) = {0.9, 0.999};
  ACCEL_ARG(double, eps) = 1e-8;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(double, momentum_decay) = 4e-3;
  ACCEL_ARG(bool, decoupled_weight_decay) = false;
  ACCEL_ARG(bool, maximize) = false;
};

class NAdam : public Optimizer {
 public:
  NAdam(std::vector<OptimizerParamGroup> groups, NAdamOptions defaults = NAdamOptions());
  NAdam(std::vector<Tensor> params, NAdamOptions defaults = NAdamOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
