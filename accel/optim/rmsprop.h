// RMSprop with momentum, the centered variant, weight decay and maximize, matching
// torch.optim.RMSprop.
#pragma once

#include "accel/optim/optimizer.h"

namespace accel::optim {

class RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
 public:
  explicit RMSpropOptions(double lr = 1e-2) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return momentum_; }
  void set_momentum(double momentum) override { momentum_ = momentum; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(double, alpha) = 0.99;
  ACCEL_ARG(double, eps) = 1e-8;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(double, momentum) = 0;
  ACCEL_ARG(bool, centered) = false;
  ACCEL_ARG(bool, maximize) = false;
};

class RMSprop : public Optimizer {
 public:
  RMSprop(std::vector<OptimizerParamGroup> groups, RMSpropOptions defaults = RMSpropOptions());
  RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = RMSpropOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
