// Stochastic gradient descent with momentum, dampening, Nesterov momentum, weight decay and
// maximize, matching torch.optim.SGD.
#pragma once

#include "accel/optim/optimizer.h"

namespace accel::optim {

class SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
 public:
  explicit SGDOptions(double lr) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return momentum_; }
  void set_momentum(double momentum) override { momentum_ = momentum; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(double, momentum) = 0;
  ACCEL_ARG(double, dampening) = 0;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(bool, nesterov) = false;
  ACCEL_ARG(bool, maximize) = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<OptimizerParamGroup> groups, SGDOptions defaults);
  SGD(std::vector<Tensor> params, SGDOptions defaults);

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
