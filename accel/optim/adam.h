// Adam (optionally AMSGrad, L2 weight decay) and AdamW (decoupled weight decay), matching
// torch.optim.Adam and torch.optim.AdamW; the two share one update rule, math::adam_update.
#pragma once

#include <tuple>

#include "accel/optim/optimizer.h"

namespace accel::optim {

using Betas = std::tuple<double, double>;

class AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
 public:
  explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return std::get<0>(betas_); }
  void set_momentum(double beta1) override { std::get<0>(betas_) = beta1; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(Betas, betas) = {0.9, 0.999};
  ACCEL_ARG(double, eps) = 1e-8;
  ACCEL_ARG(double, weight_decay) = 0;
  ACCEL_ARG(bool, amsgrad) = false;
  ACCEL_ARG(bool, maximize) = false;
};

class AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
 public:
  explicit AdamWOptions(double lr = 1e-3) : lr_(lr) {}
  std::optional<double> get_momentum() const override { return std::get<0>(betas_); }
  void set_momentum(double beta1) override { std::get<0>(betas_) = beta1; }
  ACCEL_ARG(double, lr);
  ACCEL_ARG(Betas, betas) = {0.9, 0.999};
  ACCEL_ARG(double, eps) = 1e-8;
  ACCEL_ARG(double, weight_decay) = 1e-2;
  ACCEL_ARG(bool, amsgrad) = false;
  ACCEL_ARG(bool, maximize) = false;
};

namespace detail {
// Adam's checks and update for either options type; AdamW decouples the weight decay.
template <typename Options, bool kDecoupledWeightDecay>
class AdamFamily : public Optimizer {
 protected:
  using Optimizer::Optimizer;

 private:
  void check_options(const OptimizerOptions& options) const override;
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
};
}  // namespace detail

class Adam : public detail::AdamFamily<AdamOptions, false> {
 public:
  Adam(std::vector<OptimizerParamGroup> groups, AdamOptions defaults = AdamOptions());
  Adam(std::vector<Tensor> params, AdamOptions defaults = AdamOptions());
};

class AdamW : public detail::AdamFamily<AdamWOptions, true> {
 public:
  AdamW(std::vector<OptimizerParamGroup> groups, AdamWOptions defaults = AdamWOptions());
  AdamW(std::vector<Tensor> params, AdamWOptions defaults = AdamWOptions());
};

}  // namespace accel::optim
