// optim::Optimizer: the base of every optimizer, as in LibTorch. It owns the parameter groups
// (each with its own options), the per-parameter state tensors (step counts included), the
// state_dict round trip, zero_grad, and step() — with the mixed-precision overload that skips
// on a found-inf flag or unscales gradients inside the update. Subclasses supply one update.
#pragma once

#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::optim {

// The options of one parameter group. Schedulers reach the learning rate through get_lr/set_lr.
class OptimizerOptions {
 public:
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const = 0;
  virtual double get_lr() const = 0;
  virtual void set_lr(double lr) = 0;
  // The momentum a scheduler may cycle (SGD's and RMSprop's momentum, Adam's beta1); none for
  // optimizers without one, where set_momentum is not called.
  virtual std::optional<double> get_momentum() const { return std::nullopt; }
  virtual void set_momentum(double) {}
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 public:
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  double get_lr() const override { return static_cast<const Derived&>(*this).lr(); }
  void set_lr(double lr) override { static_cast<Derived&>(*this).lr(lr); }
};

// Parameters optimized with one set of options; a group without options takes the
// optimizer's defaults when added. `{params, AdamOptions(1e-3)}` builds one.
class OptimizerParamGroup {
 public:
  OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}
  template <std::derived_from<OptimizerOptions> Options>
  OptimizerParamGroup(std::vector<Tensor> params, const Options& options)
      : params_(std::move(params)), options_(options.clone()) {}
  OptimizerParamGroup(const OptimizerParamGroup& other);
  OptimizerParamGroup& operator=(const OptimizerParamGroup& other);
  OptimizerParamGroup(OptimizerParamGroup&&) = default;
  OptimizerParamGroup& operator=(OptimizerParamGroup&&) = default;

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }
  // The rate when the first LR scheduler was attached (PyTorch's group["initial_lr"]): every
  // scheduler on this optimizer takes it as its base rate.
  const std::optional<double>& initial_lr() const { return initial_lr_; }
  void set_initial_lr(std::optional<double> lr) { initial_lr_ = lr; }

 private:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
  std::optional<double> initial_lr_;
};

// Reevaluates the model and returns the loss (LibTorch's LossClosure): step(closure) calls it.
using LossClosure = std::function<Tensor()>;

// One parameter's optimizer state by name ("step", "exp_avg", "momentum_buffer", ...).
using ParamState = std::map<std::string, Tensor>;

// Whether a state key names a number without dimensions kept in float64 on the CPU ("step",
// NAdam's "mu_product", ASGD's "eta" and "mu") rather than a buffer shaped like its parameter.
bool is_scalar_state(const std::string& key);

// For updates written as tensor ops: the gradient an update descends, a new tensor on the
// parameter's device: grad * grad_scale, negated under maximize, plus l2_weight_decay * param.
Tensor descent_gradient(const Tensor& param, const Tensor& grad, double grad_scale, bool maximize,
                        double l2_weight_decay);

// A snapshot of an optimizer (tensors cloned): parameters are numbered across groups in
// order, as PyTorch's state_dict, so it loads into an optimizer built over other tensors.
struct OptimizerStateDict {
  struct Group {
    std::vector<int64_t> params;
    std::shared_ptr<const OptimizerOptions> options;
    std::optional<double> initial_lr;
  };
  std::vector<Group> param_groups;
  std::map<int64_t, ParamState> state;  // parameters that have state
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  const std::string& name() const { return name_; }
  const OptimizerOptions& defaults() const { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() { return groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const { return groups_; }
  // Checks the group (leaf parameters, none already optimized, valid options) and adds it.
  void add_param_group(const OptimizerParamGroup& group);
  // The state of `param` (empty before its first update).
  const ParamState& state(const Tensor& param) const;

  void zero_grad(bool set_to_none = true);
  // Updates every parameter that has a gradient.
  void step();
  // Mixed precision: does nothing when found_inf (a one-element tensor) is nonzero; otherwise
  // the gradients are multiplied by inv_scale (one element) inside the update.
  void step(const Tensor& found_inf, const Tensor& inv_scale);
  // As PyTorch's step(closure): calls the closure with gradients enabled, then updates, and
  // returns the closure's loss. LBFGS calls it several times per step.
  virtual Tensor step(const LossClosure& closure);

  OptimizerStateDict state_dict() const;
  // Installs a state dict from an optimizer of the same kind over parameters of the same shapes;
  // on an error the optimizer is left unchanged.
  void load_state_dict(const OptimizerStateDict& state_dict);
  // The error load_state_dict would raise, without changing anything (for loaders that check
  // several parts of a checkpoint before applying any).
  void check_state_dict(const OptimizerStateDict& state_dict) const;

 protected:
  Optimizer(std::string name, std::unique_ptr<OptimizerOptions> defaults);
  // Called by each subclass constructor: checks the defaults and adds the groups.
  void init(std::vector<OptimizerParamGroup> groups);
  // Throws accel::Error naming the optimizer for an invalid option value.
  virtual void check_options(const OptimizerOptions& options) const = 0;
  // Throw "<name>: invalid <what>: <value> (expected ...)" for out-of-range option values.
  void check_non_negative(const char* what, double value) const;
  void check_unit_interval(const char* what, double value) const;  // 0 <= value < 1
  // Updates one parameter in place (contiguous, on the CPU) from its contiguous gradient,
  // creating its state on the first call.
  virtual void update(const Tensor& param, const Tensor& grad, double grad_scale,
                      const OptimizerOptions& options, ParamState& state) = 0;
  // Checks the saved state of parameter `index` and returns it as the state of `param`. By
  // default, scalar states (is_scalar_state) are non-negative float64 numbers and every other
  // state is a buffer shaped like the parameter, taking its dtype and device.
  virtual ParamState adopt_state(const ParamState& saved, int64_t index, const Tensor& param) const;
  // The state of `param`, for optimizers that update all their parameters together.
  ParamState& mutable_state(const Tensor& param) { return state_[param.impl()]; }
  // Increments the state's "step" count (created at 0) and returns the new value.
  static double advance_step(ParamState& state);
  // The state tensor `key`, created as zeros like `param` on first use and kept on its device.
  static Tensor& state_buffer(ParamState& state, const char* key, const Tensor& param);

 private:
  // Every group's parameters in turn: the state dict's numbering.
  std::vector<Tensor> ordered_params() const;
  // The checks of check_state_dict that concern the parameter groups.
  void check_groups(const OptimizerStateDict& state_dict) const;
  // Every saved state, checked and adopted (adopt_state), keyed by its parameter.
  std::unordered_map<const TensorImpl*, ParamState> adopt_states(
      const OptimizerStateDict& state_dict) const;

  std::string name_;
  std::unique_ptr<OptimizerOptions> defaults_;
  std::vector<OptimizerParamGroup> groups_;
  std::unordered_map<const TensorImpl*, ParamState> state_;
};

}  // namespace accel::optim
