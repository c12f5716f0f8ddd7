// The optimizer machinery shared by every update rule: parameter-group bookkeeping and its
// checks, zero_grad, the step loop with the mixed-precision skip/unscale, and state_dict.
#include "accel/optim/optimizer.h"

#include <cmath>
#include <typeinfo>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/io/message_name.h"

namespace accel::optim {
namespace {

// A loaded scalar state ("step", "mu_product", ASGD's "eta" and "mu") must be one an update can
// continue from: a finite non-negative number without dimensions (a NaN or negative step count
// would make every later bias correction wrong).
void check_scalar_state(const std::string& key, const Tensor& value, int64_t index,
                        const std::string& op) {
  const bool is_number = value.dim() == 0 && value.dtype() != kBool;
  const double number = is_number ? value.item<double>() : 0.0;
  ACCEL_CHECK(is_number && std::isfinite(number) && number >= 0, op,
              "state {} of parameter {} must be a non-negative number without dimensions; "
              "got {} of shape {}{}",
              io::quoted_for_message(key), index, value.dtype(), value.sizes(),
              is_number ? fmt::format(" holding {}", number) : "");
}

// Whether two option sets belong to the same optimizer class (taking references keeps clang from
// warning that typeid evaluates the smart pointers' operator*).
bool same_optimizer_class(const OptimizerOptions& a, const OptimizerOptions& b) {
  return typeid(a) == typeid(b);
}

}  // namespace

bool is_scalar_state(const std::string& key) {
  return key == "step" || key == "mu_product" || key == "eta" || key == "mu";
}

Tensor descent_gradient(const Tensor& param, const Tensor& grad, double grad_scale, bool maximize,
                        double l2_weight_decay) {
  Tensor g = grad.mul(maximize ? -grad_scale : grad_scale);
  if (l2_weight_decay != 0) g.add_(param, l2_weight_decay);
  return g;
}

OptimizerParamGroup::OptimizerParamGroup(const OptimizerParamGroup& other)
    : params_(other.params_),
      options_(other.options_ ? other.options_->clone() : nullptr),
      initial_lr_(other.initial_lr_) {}

OptimizerParamGroup& OptimizerParamGroup::operator=(const OptimizerParamGroup& other) {
  params_ = other.params_;
  options_ = other.options_ ? other.options_->clone() : nullptr;
  initial_lr_ = other.initial_lr_;
  return *this;
}

OptimizerOptions& OptimizerParamGroup::options() {
  ACCEL_CHECK(options_ != nullptr, "OptimizerParamGroup", "the group has no options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  ACCEL_CHECK(options_ != nullptr, "OptimizerParamGroup", "the group has no options");
  return *options_;
}

Optimizer::Optimizer(std::string name, std::unique_ptr<OptimizerOptions> defaults)
    : name_(std::move(name)), defaults_(std::move(defaults)) {}

void Optimizer::init(std::vector<OptimizerParamGroup> groups) {
  check_options(*defaults_);
  for (const OptimizerParamGroup& group : groups) add_param_group(group);
}

void Optimizer::add_param_group(const OptimizerParamGroup& group) {
  ACCEL_CHECK(!group.params().empty(), name_, "got an empty parameter list");
  OptimizerParamGroup added = group;
  if (!added.has_options()) added.set_options(defaults_->clone());
  ACCEL_CHECK(same_optimizer_class(added.options(), *defaults_), name_,
              "parameter group {} has options of another optimizer", groups_.size());
  check_options(added.options());
  const std::vector<Tensor>& params = added.params();
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& p = params[i];
    ACCEL_CHECK(p.defined(), name_, "parameter {} of group {} is undefined", i, groups_.size());
    ACCEL_CHECK(p.is_leaf(), name_, "parameter {} of group {} (shape {}) is not a leaf tensor", i,
                groups_.size(), p.sizes());
    ACCEL_CHECK(p.is_floating_point(), name_,
                "parameter {} of group {} has dtype {}; expected a floating point tensor", i,
                groups_.size(), p.dtype());
    bool duplicate = false;
    for (size_t j = 0; j < i; ++j) duplicate |= params[j].is_same(p);
    for (const OptimizerParamGroup& existing : groups_) {
      for (const Tensor& q : existing.params()) duplicate |= q.is_same(p);
    }
    ACCEL_CHECK(!duplicate, name_,
                "parameter {} of group {} (shape {}) appears more than once in the optimizer", i,
                groups_.size(), p.sizes());
  }
  groups_.push_back(std::move(added));
}

const ParamState& Optimizer::state(const Tensor& param) const {
  static const ParamState empty;
  auto it = state_.find(param.impl());
  return it == state_.end() ? empty : it->second;
}

void Optimizer::zero_grad(bool set_to_none) {
  for (OptimizerParamGroup& group : groups_) {
    for (Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      if (set_to_none) {
        p.set_grad(Tensor());
      } else {
        Tensor& grad = p.mutable_grad();
        if (grad.grad_fn()) grad.detach_();
        NoGradGuard no_grad;
        grad.zero_();
      }
    }
  }
}

void Optimizer::step() { step(Tensor(), Tensor()); }

void Optimizer::step(const Tensor& found_inf, const Tensor& inv_scale) {
  if (found_inf.defined() && found_inf.item<double>() != 0.0) return;
  const double grad_scale = inv_scale.defined() ? inv_scale.item<double>() : 1.0;
  NoGradGuard no_grad;
  for (OptimizerParamGroup& group : groups_) {
    for (const Tensor& p : group.params()) {
      const Tensor& grad = p.grad();
      if (!grad.defined()) continue;
      ACCEL_CHECK(p.is_contiguous(), name_,
                  "parameters must be contiguous tensors; got shape {} strides {}", p.sizes(),
                  p.strides());
      ACCEL_CHECK(
          grad.dtype() == p.dtype() && grad.sizes() == p.sizes() && grad.device() == p.device(),
          name_, "gradient is {} of shape {} on {} but its parameter is {} of shape {} on {}",
          grad.dtype(), grad.sizes(), grad.device(), p.dtype(), p.sizes(), p.device());
      update(p, grad.contiguous(), grad_scale, group.options(), state_[p.impl()]);
      p.storage()->bump_version();
    }
  }
}

Tensor Optimizer::step(const LossClosure& closure) {
  Tensor loss;
  if (closure) {
    AutoGradMode enable_grad(true);
    loss = closure();
  }
  step();
  return loss;
}

void Optimizer::check_non_negative(const char* what, double value) const {
  ACCEL_CHECK(value >= 0.0, name_, "invalid {}: {} (expected >= 0)", what, value);
}

void Optimizer::check_unit_interval(const char* what, double value) const {
  ACCEL_CHECK(value >= 0.0 && value < 1.0, name_, "invalid {}: {} (expected in [0, 1))", what,
              value);
}

double Optimizer::advance_step(ParamState& state) {
  Tensor& step = state["step"];
  if (!step.defined()) step = zeros({}, kFloat64);
  step.add_(1);
  return step.item<double>();
}

Tensor& Optimizer::state_buffer(ParamState& state, const char* key, const Tensor& param) {
  Tensor& buffer = state[key];
  if (!buffer.defined()) {
    buffer = zeros_like(param);
  } else if (buffer.device() != param.device()) {
    buffer = buffer.to(param.device());  // the model moved since the last step
  }
  return buffer;
}

OptimizerStateDict Optimizer::state_dict() const {
  OptimizerStateDict dict;
  int64_t index = 0;
  for (const OptimizerParamGroup& group : groups_) {
    OptimizerStateDict::Group saved{{}, group.options().clone(), group.initial_lr()};
    for (const Tensor& p : group.params()) {
      auto it = state_.find(p.impl());
      if (it != state_.end() && !it->second.empty()) {
        ParamState& copy = dict.state[index];
        for (const auto& [key, value] : it->second) copy[key] = value.clone();
      }
      saved.params.push_back(index++);
    }
    dict.param_groups.push_back(std::move(saved));
  }
  return dict;
}

std::vector<Tensor> Optimizer::ordered_params() const {
  std::vector<Tensor> params;
  for (const OptimizerParamGroup& group : groups_) {
    params.insert(params.end(), group.params().begin(), group.params().end());
  }
  return params;
}

void Optimizer::check_groups(const OptimizerStateDict& dict) const {
  ACCEL_CHECK(dict.param_groups.size() == groups_.size(), name_,
              "the state dict has {} parameter groups but the optimizer has {}",
              dict.param_groups.size(), groups_.size());
  int64_t numbered = 0;
  for (size_t g = 0; g < groups_.size(); ++g) {
    const OptimizerStateDict::Group& saved = dict.param_groups[g];
    const std::vector<Tensor>& group_params = groups_[g].params();
    ACCEL_CHECK(saved.params.size() == group_params.size(), name_,
                "group {} of the state dict has {} parameters but the optimizer's has {}", g,
                saved.params.size(), group_params.size());
    ACCEL_CHECK(saved.options && same_optimizer_class(*saved.options, *defaults_), name_,
                "group {} of the state dict holds options of another optimizer", g);
    // The same checks as the constructors: a state dict (perhaps from a file) must not install
    // options no constructor accepts (beta1 = 1 makes Adam's first step NaN).
    try {
      check_options(*saved.options);
    } catch (const Error& error) {
      fail(name_, "group {} of the state dict: {}", g, error.what());
    }
    for (size_t i = 0; i < group_params.size(); ++i, ++numbered) {
      ACCEL_CHECK(saved.params[i] == numbered, name_,
                  "group {} of the state dict numbers its parameter {} as {}, expected {}", g, i,
                  saved.params[i], numbered);
    }
  }
}

ParamState Optimizer::adopt_state(const ParamState& saved, int64_t index,
                                  const Tensor& param) const {
  ParamState state;
  for (const auto& [key, value] : saved) {
    ACCEL_CHECK(value.defined(), name_, "state {} of parameter {} is undefined",
                io::quoted_for_message(key), index);
    if (is_scalar_state(key)) {
      check_scalar_state(key, value, index, name_);
      state[key] = value.clone();  // keeps its float64
    } else {
      ACCEL_CHECK(value.sizes() == param.sizes(), name_,
                  "state {} of parameter {} has shape {} but the parameter has shape {}",
                  io::quoted_for_message(key), index, value.sizes(), param.sizes());
      state[key] = value.to(param.options(), false, true);
    }
  }
  return state;
}

std::unordered_map<const TensorImpl*, ParamState> Optimizer::adopt_states(
    const OptimizerStateDict& dict) const {
  const std::vector<Tensor> params = ordered_params();
  std::unordered_map<const TensorImpl*, ParamState> adopted;
  for (const auto& [index, saved_state] : dict.state) {
    ACCEL_CHECK(index >= 0 && index < static_cast<int64_t>(params.size()), name_,
                "the state dict has state for parameter {} but the optimizer has {} parameters",
                index, params.size());
    const Tensor& p = params[index];
    adopted[p.impl()] = adopt_state(saved_state, index, p);
  }
  return adopted;
}

void Optimizer::check_state_dict(const OptimizerStateDict& dict) const {
  check_groups(dict);
  adopt_states(dict);
}

void Optimizer::load_state_dict(const OptimizerStateDict& dict) {
  check_groups(dict);
  std::unordered_map<const TensorImpl*, ParamState> adopted = adopt_states(dict);
  for (size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].set_options(dict.param_groups[g].options->clone());
    groups_[g].set_initial_lr(dict.param_groups[g].initial_lr);
  }
  state_ = std::move(adopted);
}

}  // namespace accel::optim
