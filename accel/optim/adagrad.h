// Adagrad with learning-rate decay, weight decay, an initial accumulator value and maximize,
// matching torch.optim.Adagrad.
#pragma once

#include "accel/optim/optimizer.h"

namespace accel::optim {

class AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
 public:
  explicit AdagradOptions(double lr = 1e-2) : lr_(lr) {}
  ACCEL_ARG(double, lr);
  ACCEL_ARG(double, lr_decay) = 0;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(double, initial_accumulator_value) = 0;
  ACCEL_ARG(double, eps) = 1e-10;
  ACCEL_ARG(bool, maximize) = false;
};

class Adagrad : public Optimizer {
 public:
  Adagrad(std::vector<OptimizerParamGroup> groups, AdagradOptions defaults = AdagradOptions());
  Adagrad(std::vector<Tensor> params, AdagradOptions defaults = AdagradOptions());

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};

}  // namespace accel::optim
