// Adadelta (steps scaled by the ratio of running RMS of past updates to that of gradients),
// matching torch.optim.Adadelta. The update is a composition of tensor ops on the parameter's
// device, so it runs on every device with no kernel of its own.
#pragma once

#include "accel/optim/optimizer.h"

namespace accel::optim {

class AdadeltaOptions : public OptimizerCloneableOptions<AdadeltaOptions> {
 public:
  explicit AdadeltaOptions(double lr = 1.0) : lr_(lr) {}
  ACCEL_ARG(double, lr);
  ACCEL_ARG(double, rho) = 0.9;
  ACCEL_ARG(double, eps) = 1e-6;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(bool, maximize) = false;
};

class Adadelta : public Optimizer {
 public:
  Adadelta(std::vector<OptimizerParamGroup> groups, AdadeltaOptions defaults = AdadeltaOptions());
  Adadelta(std::vector<Tensor> params, AdadeltaOptions defaults = AdadeltaOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
