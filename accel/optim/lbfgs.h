// L-BFGS, matching torch.optim.LBFGS and LibTorch's optim::LBFGS: a quasi-Newton method that
// approximates the inverse Hessian from the last history_size steps and gradient changes. Each
// step(closure) runs up to max_iter iterations, reevaluating the model through the closure, with
// a fixed step length lr or a strong-Wolfe line search. One parameter group; every parameter of
// one dtype and device.
#pragma once

#include <optional>
#include <string>

#include "accel/optim/optimizer.h"

namespace accel::optim {

class LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
 public:
  explicit LBFGSOptions(double lr = 1) : lr_(lr) {}
  ACCEL_ARG(double, lr);
  // Iterations per step.
  ACCEL_ARG(int64_t, max_iter) = 20;
  // Closure evaluations per step; max_iter * 5 / 4 when unset.
  ACCEL_ARG(std::optional<int64_t>, max_eval) = std::nullopt;
  // A step ends when every gradient element is at most this in magnitude...
  ACCEL_ARG(double, tolerance_grad) = 1e-7;
  // ...or when the loss or the parameters change by less than this.
  ACCEL_ARG(double, tolerance_change) = 1e-9;
  ACCEL_ARG(int64_t, history_size) = 100;
  // Unset (fixed step length lr) or "strong_wolfe".
  ACCEL_ARG(std::optional<std::string>, line_search_fn) = std::nullopt;
  ACCEL_ARG(bool, maximize) = false;
};

class LBFGS : public Optimizer {
 public:
  LBFGS(std::vector<OptimizerParamGroup> groups, LBFGSOptions defaults = LBFGSOptions());
  LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = LBFGSOptions());

  using Optimizer::step;
  // Runs the iterations of one step and returns the loss of the closure's first evaluation.
  // The closure clears the gradients, computes the loss, calls backward() and returns the loss.
  Tensor step(const LossClosure& closure) override;

 private:
  void check_options(const OptimizerOptions& options) const override;
  // LBFGS cannot update from gradients alone: step() without a closure is an error.
  void update(const Tensor& param, const Tensor& grad, double grad_scale,
              const OptimizerOptions& options, ParamState& state) override;
  // The state lives with the first parameter: scalars (func_evals, n_iter, t, H_diag,
  // prev_loss), flat vectors over every parameter (d, prev_flat_grad) and the history
  // (old_dirs.<i>, old_stps.<i>, ro.<i>).
  ParamState adopt_state(const ParamState& saved, int64_t index,
                         const Tensor& param) const override;
};

}  // namespace accel::optim
