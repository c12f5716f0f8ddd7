// Adamax (Adam with the infinity norm of past gradients as its denominator), matching
// torch.optim.Adamax. The update is a composition of tensor ops on the parameter's device, so it
// runs on every device with no kernel of its own.
#pragma once

#include "accel/optim/adam.h"

namespace accel::optim {

class AdamaxOptions : public OptimizerCloneableOptions<AdamaxOptions> {
 public:
  explicit AdamaxOptions(double lr = 2e-3) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return std::get<0>(betas_); }
  void set_momentum(double beta1) override { std::get<0>(betas_) = beta1; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(Betas, betas) = {0.9, 0.999};
  ACCEL_ARG(double, eps) = 1e-8;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(bool, maximize) = false;
};

class Adamax : public Optimizer {
 public:
  Adamax(std::vector<OptimizerParamGroup> groups, AdamaxOptions defaults = AdamaxOptions());
  Adamax(std::vector<Tensor> params, AdamaxOptions defaults = AdamaxOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
