// ASGD (averaged stochastic gradient descent: SGD with a decaying rate whose parameters are
// averaged from step t0 on), matching torch.optim.ASGD. The update is a composition of tensor
// ops on the parameter's device; the average is the state "ax".
#pragma once

#include "accel/optim/optimizer.h"

namespace accel::optim {

class ASGDOptions : public OptimizerCloneableOptions<ASGDOptions> {
 public:
  explicit ASGDOptions(double lr = 1e-2) : lr_(lr) {}
  ACCEL_ARG(double, lr);
  // The decay term: the rate after t steps is lr / (1 + lambd * lr * t)^alpha.
  ACCEL_ARG(double, lambd) = 1e-4;
  ACCEL_ARG(double, alpha) = 0.75;
  // The step after which averaging starts.
  ACCEL_ARG(double, t0) = 1e6;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(bool, maximize) = false;
};

class ASGD : public Optimizer {
 public:
  ASGD(std::vector<OptimizerParamGroup> groups, ASGDOptions defaults = ASGDOptions());
  ASGD(std::vector<Tensor> params, ASGDOptions defaults = ASGDOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
