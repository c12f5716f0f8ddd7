// Rprop (resilient backpropagation: each element steps by its own size, grown while its
// gradient keeps its sign and shrunk when the sign flips), matching torch.optim.Rprop. The
// update is a composition of tensor ops on the parameter's device.
#pragma once

#include "accel/optim/adam.h"

namespace accel::optim {

class RpropOptions : public OptimizerCloneableOptions<RpropOptions> {
 public:
  // lr is every element's first step size.
  explicit RpropOptions(double lr = 1e-2) : lr_(lr) {}
  ACCEL_ARG(double, lr);
  // (etaminus, etaplus): the factors a step size takes when the gradient's sign flips / stays.
  ACCEL_ARG(Betas, etas) = {0.5, 1.2};
  // (minimum, maximum) step size.
  ACCEL_ARG(Betas, step_sizes) = {1e-6, 50};
  ACCEL_ARG(bool, maximize) = false;
};

class Rprop : public Optimizer {
 public:
  Rprop(std::vector<OptimizerParamGroup> groups, RpropOptions defaults = RpropOptions());
  Rprop(std::vector<Tensor> params, RpropOptions defaults = RpropOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
