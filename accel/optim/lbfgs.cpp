// L-BFGS: the iterations of torch.optim.LBFGS.step — the two-loop recursion over the stored
// (gradient change, step) pairs for the direction, a fixed step or the strong-Wolfe search for
// its length, PyTorch's stopping tests — and its state's checks on load. Flat vectors join every
// parameter in group order; numbers kept between steps are float64.
#include "accel/optim/lbfgs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <optional>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/io/message_name.h"
#include "accel/core/ops.h"
#include "accel/optim/strong_wolfe.h"

namespace accel::optim {
namespace {

constexpr const char* kClosureNeeded =
    "step needs a closure that clears the gradients, computes the loss, calls backward() and "
    "returns the loss: call step(closure)";

// The curvature pairs (y = gradient change, s = step) of the last iterations, oldest first,
// with ro = 1 / (y . s).
struct History {
  std::deque<Tensor> dirs;
  std::deque<Tensor> steps;
  std::deque<double> ro;

  size_t size() const { return ro.size(); }

  static std::string key(const char* family, size_t i) { return fmt::format("{}.{}", family, i); }

  static History from(const ParamState& state) {
    History history;
    for (size_t i = 0; state.contains(key("ro", i)); ++i) {
      history.dirs.push_back(state.at(key("old_dirs", i)));
      history.steps.push_back(state.at(key("old_stps", i)));
      history.ro.push_back(state.at(key("ro", i)).item<double>());
    }
    return history;
  }

  void store(ParamState& state) const {
    std::erase_if(state, [](const auto& entry) { return is_history_key(entry.first); });
    for (size_t i = 0; i < size(); ++i) {
      state[key("old_dirs", i)] = dirs[i];
      state[key("old_stps", i)] = steps[i];
      state[key("ro", i)] = scalar_tensor(ro[i], kFloat64);
    }
  }

  // "old_dirs.<i>", "old_stps.<i>" or "ro.<i>": the family and index, or nullopt.
  static std::optional<std::pair<std::string, size_t>> parse(const std::string& key) {
    const size_t dot = key.find('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string family = key.substr(0, dot);
    const std::string digits = key.substr(dot + 1);
    if (family != "old_dirs" && family != "old_stps" && family != "ro") return std::nullopt;
    const bool decimal =
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits.empty() || digits.size() > 9 || !decimal ||
        (digits.size() > 1 && digits[0] == '0')) {
      return std::nullopt;
    }
    return std::pair{family, static_cast<size_t>(std::stoul(digits))};
  }

  static bool is_history_key(const std::string& key) { return parse(key).has_value(); }
};

// The state kept between steps once an iteration has run.
constexpr std::array kIterationKeys = {"d", "t", "H_diag", "prev_flat_grad", "prev_loss"};

double max_abs(const Tensor& t) { return t.abs().max().item<double>(); }

}  // namespace

LBFGS::LBFGS(std::vector<OptimizerParamGroup> groups, LBFGSOptions defaults)
    : Optimizer("LBFGS", defaults.clone()) {
  init(std::move(groups));
  ACCEL_CHECK(param_groups().size() == 1, name(),
              "got {} parameter groups; LBFGS takes one (it has no per-group options)",
              param_groups().size());
}

LBFGS::LBFGS(std::vector<Tensor> params, LBFGSOptions defaults)
    : LBFGS(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
            std::move(defaults)) {}

void LBFGS::check_options(const OptimizerOptions& options) const {
  const auto& o = static_cast<const LBFGSOptions&>(options);
  check_non_negative("learning rate", o.lr());
  ACCEL_CHECK(o.max_iter() >= 1, name(), "invalid max_iter: {} (expected >= 1)", o.max_iter());
  ACCEL_CHECK(!o.max_eval() || *o.max_eval() >= 1, name(), "invalid max_eval: {} (expected >= 1)",
              o.max_eval().value_or(0));
  ACCEL_CHECK(o.history_size() >= 1, name(), "invalid history_size: {} (expected >= 1)",
              o.history_size());
  ACCEL_CHECK(!std::isnan(o.tolerance_grad()) && !std::isnan(o.tolerance_change()), name(),
              "invalid tolerances: tolerance_grad {}, tolerance_change {} (expected numbers)",
              o.tolerance_grad(), o.tolerance_change());
  ACCEL_CHECK(!o.line_search_fn() || *o.line_search_fn() == "strong_wolfe", name(),
              "invalid line_search_fn: {} (expected \"strong_wolfe\" or none)",
              io::quoted_for_message(o.line_search_fn().value_or("")));
}

void LBFGS::update(const Tensor&, const Tensor&, double, const OptimizerOptions&, ParamState&) {
  fail(name(), kClosureNeeded);
}

Tensor LBFGS::step(const LossClosure& closure) {
  ACCEL_CHECK(closure != nullptr, name(), kClosureNeeded);
  ACCEL_CHECK(param_groups().size() == 1, name(),
              "has {} parameter groups; LBFGS takes one (it has no per-group options)",
              param_groups().size());
  const auto& o = static_cast<const LBFGSOptions&>(param_groups()[0].options());
  const std::vector<Tensor>& params = param_groups()[0].params();
  for (const Tensor& p : params) {
    ACCEL_CHECK(p.dtype() == params[0].dtype() && p.device() == params[0].device(), name(),
                "every parameter must have one dtype and device; parameter 0 is {} on {}, "
                "another (shape {}) is {} on {}",
                params[0].dtype(), params[0].device(), p.sizes(), p.dtype(), p.device());
  }
  NoGradGuard no_grad;
  const bool maximize = o.maximize();
  const auto evaluate = [&] {
    Tensor loss;
    {
      AutoGradMode enable_grad(true);
      loss = closure();
    }
    ACCEL_CHECK(loss.defined() && loss.numel() == 1, name(),
                "the closure must return the loss as a one-element tensor; got {}",
                loss.defined() ? fmt::format("shape {}", loss.sizes()) : "an undefined tensor");
    return loss;
  };
  const auto loss_value = [&](const Tensor& loss) {
    return maximize ? -loss.item<double>() : loss.item<double>();
  };
  // Every gradient in one vector (zeros for a parameter without one), negated under maximize.
  const auto gather_flat_grad = [&] {
    std::vector<Tensor> views;
    for (const Tensor& p : params) {
      const Tensor& grad = p.grad();
      ACCEL_CHECK(!grad.defined() || (grad.dtype() == p.dtype() && grad.sizes() == p.sizes() &&
                                      grad.device() == p.device()),
                  name(),
                  "gradient is {} of shape {} on {} but its parameter is {} of shape {} on {}",
                  grad.dtype(), grad.sizes(), grad.device(), p.dtype(), p.sizes(), p.device());
      views.push_back(grad.defined() ? grad.reshape({-1}) : zeros({p.numel()}, p.options()));
    }
    Tensor flat = cat(views);
    return maximize ? flat.neg() : flat;
  };
  // params += step * direction, the direction cut into the parameters' shapes.
  const auto add_direction = [&](double step, const Tensor& direction) {
    int64_t offset = 0;
    for (const Tensor& p : params) {
      p.add_(direction.narrow(0, offset, p.numel()).view(p.sizes()), step);
      offset += p.numel();
    }
  };

  ParamState& state = mutable_state(params[0]);
  const auto number = [&](const char* key, double fallback) {
    return state.contains(key) ? state.at(key).item<double>() : fallback;
  };
  const auto set_number = [&](const char* key, double value) {
    state[key] = scalar_tensor(value, kFloat64);
  };
  double func_evals = number("func_evals", 0);
  double total_iterations = number("n_iter", 0);

  const Tensor orig_loss = evaluate();
  double loss = loss_value(orig_loss);
  int64_t current_evals = 1;
  func_evals += 1;
  Tensor flat_grad = gather_flat_grad();
  bool opt_cond = max_abs(flat_grad) <= o.tolerance_grad();
  if (opt_cond) {
    set_number("func_evals", func_evals);
    set_number("n_iter", total_iterations);
    return orig_loss;
  }

  Tensor d = state.contains("d") ? state.at("d") : Tensor();
  Tensor prev_flat_grad = state.contains("prev_flat_grad") ? state.at("prev_flat_grad") : Tensor();
  double t = number("t", 0);
  double h_diag = number("H_diag", 1);
  double prev_loss = number("prev_loss", 0);
  History history = History::from(state);
  const int64_t max_iter = o.max_iter();
  const int64_t max_eval = o.max_eval().value_or(max_iter * 5 / 4);
  const auto history_size = static_cast<size_t>(o.history_size());

  for (int64_t n_iter = 1; n_iter <= max_iter; ++n_iter) {
    total_iterations += 1;
    if (total_iterations == 1) {
      d = flat_grad.neg();
      history = History();
      h_diag = 1;
    } else {
      // The newest curvature pair, kept when y . s shows positive curvature.
      const Tensor y = flat_grad.sub(prev_flat_grad);
      const Tensor s = d.mul(t);
      const double ys = y.dot(s).item<double>();
      if (ys > 1e-10) {
        while (history.size() >= history_size) {
          history.dirs.pop_front();
          history.steps.pop_front();
          history.ro.pop_front();
        }
        history.dirs.push_back(y);
        history.steps.push_back(s);
        history.ro.push_back(1.0 / ys);
        h_diag = ys / y.dot(y).item<double>();
      }
      // The two-loop recursion: d = -H g with H the inverse-Hessian approximation.
      std::vector<double> alpha(history.size());
      Tensor q = flat_grad.neg();
      for (size_t i = history.size(); i-- > 0;) {
        alpha[i] = history.steps[i].dot(q).item<double>() * history.ro[i];
        q.add_(history.dirs[i], -alpha[i]);
      }
      d = q.mul(h_diag);
      for (size_t i = 0; i < history.size(); ++i) {
        const double beta = history.dirs[i].dot(d).item<double>() * history.ro[i];
        d.add_(history.steps[i], alpha[i] - beta);
      }
    }
    if (prev_flat_grad.defined()) {
      prev_flat_grad.copy_(flat_grad);
    } else {
      prev_flat_grad = flat_grad.clone();
    }
    prev_loss = loss;
    t = total_iterations == 1 ? std::min(1.0, 1.0 / flat_grad.abs().sum().item<double>()) * o.lr()
                              : o.lr();
    const double gtd = flat_grad.dot(d).item<double>();
    if (gtd > -o.tolerance_change()) break;  // not a descent direction

    int64_t ls_func_evals = 0;
    if (o.line_search_fn()) {
      std::vector<Tensor> start;
      for (const Tensor& p : params) start.push_back(p.clone());
      const auto along_direction = [&](double step) {
        add_direction(step, d);
        const double step_loss = loss_value(evaluate());
        Tensor grad = gather_flat_grad();
        for (size_t i = 0; i < params.size(); ++i) params[i].copy_(start[i]);
        return std::pair{step_loss, std::move(grad)};
      };
      LineSearchResult found = strong_wolfe(along_direction, t, d, loss, flat_grad, gtd,
                                            o.tolerance_change(), max_eval - current_evals);
      loss = found.loss;
      flat_grad = std::move(found.flat_grad);
      t = found.t;
      ls_func_evals = found.func_evals;
      add_direction(t, d);
      opt_cond = max_abs(flat_grad) <= o.tolerance_grad();
    } else {
      add_direction(t, d);
      if (n_iter != max_iter) {
        loss = loss_value(evaluate());
        flat_grad = gather_flat_grad();
        opt_cond = max_abs(flat_grad) <= o.tolerance_grad();
        ls_func_evals = 1;
      }
    }
    current_evals += ls_func_evals;
    func_evals += static_cast<double>(ls_func_evals);

    if (n_iter == max_iter || current_evals >= max_eval || opt_cond) break;
    if (max_abs(d.mul(t)) <= o.tolerance_change()) break;          // the parameters stopped moving
    if (std::abs(loss - prev_loss) < o.tolerance_change()) break;  // the loss stopped moving
  }

  set_number("func_evals", func_evals);
  set_number("n_iter", total_iterations);
  state["d"] = d;
  set_number("t", t);
  set_number("H_diag", h_diag);
  state["prev_flat_grad"] = prev_flat_grad;
  set_number("prev_loss", prev_loss);
  history.store(state);
  return orig_loss;
}

ParamState LBFGS::adopt_state(const ParamState& saved, int64_t index, const Tensor& param) const {
  ACCEL_CHECK(index == 0 || saved.empty(), name(),
              "keeps its state with parameter 0; the state dict has state for parameter {}", index);
  int64_t numel = 0;
  for (const Tensor& p : param_groups()[0].params()) numel += p.numel();
  ParamState state;
  std::map<std::string, size_t> history_entries;  // per family
  for (const auto& [key, value] : saved) {
    const std::string quoted = io::quoted_for_message(key);
    ACCEL_CHECK(value.defined(), name(), "state {} of parameter {} is undefined", quoted, index);
    const auto history_key = History::parse(key);
    const bool is_vector =
        key == "d" || key == "prev_flat_grad" || (history_key && history_key->first != "ro");
    const bool is_number = key == "func_evals" || key == "n_iter" || key == "t" ||
                           key == "H_diag" || key == "prev_loss" ||
                           (history_key && history_key->first == "ro");
    ACCEL_CHECK(is_vector || is_number, name(), "unknown state {} of parameter {}", quoted, index);
    if (is_vector) {
      ACCEL_CHECK(value.dim() == 1 && value.numel() == numel, name(),
                  "state {} of parameter {} must be a vector of the parameters' {} elements; "
                  "got shape {}",
                  quoted, index, numel, value.sizes());
      state[key] = value.to(param.options(), false, true);
    } else {
      ACCEL_CHECK(value.dim() == 0 && value.is_floating_point(), name(),
                  "state {} of parameter {} must be a floating point number without dimensions; "
                  "got {} of shape {}",
                  quoted, index, value.dtype(), value.sizes());
      state[key] = value.to(kFloat64, false, true);
    }
    if (history_key) {
      ++history_entries[history_key->first];
    }
  }
  for (const char* count : {"func_evals", "n_iter"}) {
    if (!state.contains(count)) continue;
    const double value = state.at(count).item<double>();
    ACCEL_CHECK(std::isfinite(value) && value >= 0 && std::floor(value) == value, name(),
                "state \"{}\" of parameter {} must be a count; got {}", count, index, value);
  }
  const size_t with_iteration_state =
      std::count_if(kIterationKeys.begin(), kIterationKeys.end(),
                    [&](const char* key) { return state.contains(key); });
  const double iterations = state.contains("n_iter") ? state.at("n_iter").item<double>() : 0;
  const size_t expected_iteration_state = iterations >= 1 ? kIterationKeys.size() : 0;
  ACCEL_CHECK(with_iteration_state == expected_iteration_state, name(),
              "state of parameter {} has {} of \"d\", \"t\", \"H_diag\", \"prev_flat_grad\" and "
              "\"prev_loss\" after {} iterations (\"n_iter\"); expected {}",
              index, with_iteration_state, iterations,
              expected_iteration_state == 0 ? "none" : "all");
  const size_t pairs = history_entries["ro"];
  bool complete = history_entries["old_dirs"] == pairs && history_entries["old_stps"] == pairs;
  for (size_t i = 0; complete && i < pairs; ++i) {
    complete = state.contains(History::key("old_dirs", i)) &&
               state.contains(History::key("old_stps", i)) && state.contains(History::key("ro", i));
  }
  ACCEL_CHECK(complete && (pairs == 0 || iterations >= 1), name(),
              "state of parameter {} must hold \"old_dirs.<i>\", \"old_stps.<i>\" and \"ro.<i>\" "
              "for i = 0, 1, ... together; got {}, {} and {} entries",
              index, history_entries["old_dirs"], history_entries["old_stps"], pairs);
  return state;
}

}  // namespace accel::optim
