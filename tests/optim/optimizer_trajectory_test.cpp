// Optimizer trajectories against PyTorch: each case of
// tests/reference/fixtures/optim_trajectories.json (generate_optim_fixtures.py) runs 10 float64
// steps on loss = sum(a * p * p + b * p) and must match torch.optim to 1e-10 relative, also
// when the optimizer is rebuilt from its state_dict half way.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "accel/accel.h"
#include "accel/optim/adadelta.h"
#include "accel/optim/adagrad.h"
#include "accel/optim/adam.h"
#include "accel/optim/adamax.h"
#include "accel/optim/asgd.h"
#include "accel/optim/nadam.h"
#include "accel/optim/radam.h"
#include "accel/optim/rmsprop.h"
#include "accel/optim/rprop.h"
#include "accel/optim/sgd.h"

namespace accel::optim {
namespace {

using Factory = std::function<std::unique_ptr<Optimizer>(const std::vector<Tensor>&)>;

// One group, or one group per parameter where the second takes its own options (as the
// generator's "param_groups" cases).
template <typename Opt, typename Options>
Factory single(Options options) {
  return [options](const std::vector<Tensor>& params) {
    return std::make_unique<Opt>(params, options);
  };
}
template <typename Opt, typename Options>
Factory two_groups(Options defaults, Options second) {
  return [defaults, second](const std::vector<Tensor>& params) {
    return std::make_unique<Opt>(
        std::vector<OptimizerParamGroup>{OptimizerParamGroup({params[0]}),
                                         OptimizerParamGroup({params[1]}, second)},
        defaults);
  };
}

const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> table = {
      {"sgd_plain", single<SGD>(SGDOptions(0.1))},
      {"sgd_momentum", single<SGD>(SGDOptions(0.1).momentum(0.9))},
      {"sgd_dampening_weight_decay",
       single<SGD>(SGDOptions(0.05).momentum(0.9).dampening(0.3).weight_decay(0.1))},
      {"sgd_nesterov",
       single<SGD>(SGDOptions(0.05).momentum(0.8).nesterov(true).weight_decay(0.01))},
      {"sgd_maximize", single<SGD>(SGDOptions(0.01).momentum(0.5).maximize(true))},
      {"sgd_param_groups",
       two_groups<SGD>(SGDOptions(0.1).momentum(0.9), SGDOptions(0.01).momentum(0.5))},
      {"adam_default", single<Adam>(AdamOptions(0.1))},
      {"adam_amsgrad_weight_decay",
       single<Adam>(AdamOptions(0.1).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1).amsgrad(true))},
      {"adam_maximize", single<Adam>(AdamOptions(0.05).maximize(true))},
      {"adam_param_groups",
       two_groups<Adam>(AdamOptions(0.1), AdamOptions(0.01).betas({0.5, 0.9}))},
      {"adamw_default", single<AdamW>(AdamWOptions(0.1))},
      {"adamw_amsgrad",
       single<AdamW>(AdamWOptions(0.1).betas({0.85, 0.95}).weight_decay(0.5).amsgrad(true))},
      {"rmsprop_default", single<RMSprop>(RMSpropOptions(0.01))},
      {"rmsprop_centered", single<RMSprop>(RMSpropOptions(0.01).centered(true))},
      {"rmsprop_momentum_centered_weight_decay",
       single<RMSprop>(
           RMSpropOptions(0.01).alpha(0.9).eps(1e-6).momentum(0.8).centered(true).weight_decay(
               0.1))},
      {"rmsprop_momentum_maximize",
       single<RMSprop>(RMSpropOptions(0.01).momentum(0.5).maximize(true))},
      {"adagrad_default", single<Adagrad>(AdagradOptions(0.1))},
      {"adagrad_options",
       single<Adagrad>(
           AdagradOptions(0.1).lr_decay(0.1).weight_decay(0.1).initial_accumulator_value(0.5).eps(
               1e-8))},
      {"adagrad_maximize", single<Adagrad>(AdagradOptions(0.1).maximize(true))},
      {"adamax_default", single<Adamax>(AdamaxOptions(0.1))},
      {"adamax_weight_decay",
       single<Adamax>(AdamaxOptions(0.1).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1))},
      {"adamax_maximize", single<Adamax>(AdamaxOptions(0.05).maximize(true))},
      {"adamax_param_groups",
       two_groups<Adamax>(AdamaxOptions(0.1), AdamaxOptions(0.01).betas({0.5, 0.9}))},
      {"nadam_default", single<NAdam>(NAdamOptions(0.1))},
      {"nadam_weight_decay",
       single<NAdam>(
           NAdamOptions(0.1).betas({0.8, 0.99}).eps(1e-6).weight_decay(0.1).momentum_decay(0.01))},
      {"nadam_decoupled_weight_decay_maximize",
       single<NAdam>(
           NAdamOptions(0.05).weight_decay(0.5).decoupled_weight_decay(true).maximize(true))},
      {"nadam_param_groups",
       two_groups<NAdam>(NAdamOptions(0.1),
                         NAdamOptions(0.01).betas({0.5, 0.9}).momentum_decay(0.1))},
      {"radam_default", single<RAdam>(RAdamOptions(0.1).betas({0.9, 0.9}))},
      {"radam_weight_decay",
       single<RAdam>(RAdamOptions(0.1).betas({0.8, 0.8}).eps(1e-6).weight_decay(0.1))},
      {"radam_decoupled_weight_decay_maximize", single<RAdam>(RAdamOptions(0.05)
                                                                  .betas({0.9, 0.9})
                                                                  .weight_decay(0.5)
                                                                  .decoupled_weight_decay(true)
                                                                  .maximize(true))},
      {"radam_param_groups",
       two_groups<RAdam>(RAdamOptions(0.1), RAdamOptions(0.01).betas({0.5, 0.7}))},
      {"adadelta_default", single<Adadelta>(AdadeltaOptions())},
      {"adadelta_weight_decay",
       single<Adadelta>(AdadeltaOptions(0.5).rho(0.8).eps(1e-4).weight_decay(0.1))},
      {"adadelta_maximize", single<Adadelta>(AdadeltaOptions(0.5).maximize(true))},
      {"adadelta_param_groups",
       two_groups<Adadelta>(AdadeltaOptions(1.0).rho(0.95), AdadeltaOptions(0.1).rho(0.5))},
      {"rprop_default", single<Rprop>(RpropOptions(0.1))},
      {"rprop_etas_step_sizes",
       single<Rprop>(RpropOptions(0.3).etas({0.3, 1.5}).step_sizes({0.01, 0.4}))},
      {"rprop_maximize", single<Rprop>(RpropOptions(0.05).maximize(true))},
      {"rprop_param_groups",
       two_groups<Rprop>(RpropOptions(0.2), RpropOptions(0.01).etas({0.4, 1.1}))},
      {"asgd_default", single<ASGD>(ASGDOptions(0.1))},
      {"asgd_averaging",
       single<ASGD>(ASGDOptions(0.05).lambd(0.01).alpha(0.5).t0(3).weight_decay(0.1))},
      {"asgd_maximize", single<ASGD>(ASGDOptions(0.02).maximize(true))},
      {"asgd_param_groups", two_groups<ASGD>(ASGDOptions(0.1).t0(5), ASGDOptions(0.01).t0(2))},
  };
  return table;
}

const nlohmann::json& fixture() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(ACCEL_FIXTURE_DIR) + "/optim_trajectories.json");
    EXPECT_TRUE(in.good()) << "missing optim_trajectories.json";
    return nlohmann::json::parse(in);
  }();
  return data;
}

const std::vector<std::vector<int64_t>> kShapes = {{3}, {2, 2}};

std::vector<Tensor> tensors_from(const nlohmann::json& values, bool requires_grad) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < kShapes.size(); ++i) {
    Tensor t = tensor(values[i].get<std::vector<double>>()).reshape(kShapes[i]);
    out.push_back(requires_grad ? t.requires_grad_() : t);
  }
  return out;
}

// Fills every parameter's gradient from loss = sum(a * p * p + b * p), as the generator does.
void compute_gradients(Optimizer& opt, const std::vector<Tensor>& params) {
  static const std::vector<Tensor> a = tensors_from(fixture()["a"], false);
  static const std::vector<Tensor> b = tensors_from(fixture()["b"], false);
  opt.zero_grad();
  Tensor loss = zeros({}, kFloat64);
  for (size_t i = 0; i < params.size(); ++i) {
    loss = loss + (a[i] * params[i] * params[i] + b[i] * params[i]).sum();
  }
  loss.backward();
}

void expect_matches(const std::vector<Tensor>& params, const nlohmann::json& expected, int step) {
  for (size_t i = 0; i < params.size(); ++i) {
    const auto ref = expected[i].get<std::vector<double>>();
    const Tensor p = params[i].contiguous();
    const double* got = p.data_ptr<double>();
    for (size_t k = 0; k < ref.size(); ++k) {
      EXPECT_LE(std::abs(got[k] - ref[k]), 1e-10 * std::max(1.0, std::abs(ref[k])))
          << "step " << step + 1 << ", parameter " << i << ", element " << k << ": " << got[k]
          << " vs PyTorch " << ref[k];
    }
  }
}

TEST(OptimizerTrajectory, TableCoversFixture) {
  for (const auto& [name, _] : fixture()["cases"].items()) {
    EXPECT_TRUE(factories().count(name)) << name << " is in the fixture but not the table";
  }
  for (const auto& [name, _] : factories()) {
    EXPECT_TRUE(fixture()["cases"].contains(name)) << name << " is not in the fixture";
  }
}

TEST(OptimizerTrajectory, MatchesPyTorch) {
  for (const auto& [name, factory] : factories()) {
    SCOPED_TRACE(name);
    const nlohmann::json& trajectory = fixture()["cases"][name];
    std::vector<Tensor> params = tensors_from(fixture()["initial"], true);
    std::unique_ptr<Optimizer> opt = factory(params);
    for (int step = 0; step < static_cast<int>(trajectory.size()); ++step) {
      compute_gradients(*opt, params);
      opt->step();
      expect_matches(params, trajectory[step], step);
    }
    // State buffers the parameters do not show (ASGD's average, Rprop's step sizes).
    if (!fixture()["final_state"].contains(name)) continue;
    for (const auto& [key, expected] : fixture()["final_state"][name].items()) {
      SCOPED_TRACE(key);
      std::vector<Tensor> buffers;
      for (const Tensor& p : params) buffers.push_back(opt->state(p).at(key));
      expect_matches(buffers, expected, static_cast<int>(trajectory.size()) - 1);
    }
  }
}

// Halfway, a fresh optimizer over copies of the parameters loads the state dict; it and the
// original then take identical steps, both matching PyTorch.
TEST(OptimizerTrajectory, StateDictRoundTripContinuesIdentically) {
  for (const auto& [name, factory] : factories()) {
    SCOPED_TRACE(name);
    const nlohmann::json& trajectory = fixture()["cases"][name];
    std::vector<Tensor> params = tensors_from(fixture()["initial"], true);
    std::unique_ptr<Optimizer> opt = factory(params);
    const int half = static_cast<int>(trajectory.size()) / 2;
    for (int step = 0; step < half; ++step) {
      compute_gradients(*opt, params);
      opt->step();
    }
    std::vector<Tensor> resumed_params;
    for (const Tensor& p : params) resumed_params.push_back(p.detach().clone().requires_grad_());
    // Built with other hyperparameters' defaults: the state dict restores the group options.
    std::unique_ptr<Optimizer> resumed = factory(resumed_params);
    for (OptimizerParamGroup& group : resumed->param_groups()) group.options().set_lr(123.0);
    resumed->load_state_dict(opt->state_dict());
    for (int step = half; step < static_cast<int>(trajectory.size()); ++step) {
      compute_gradients(*opt, params);
      opt->step();
      compute_gradients(*resumed, resumed_params);
      resumed->step();
      expect_matches(resumed_params, trajectory[step], step);
      for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(params[i].equal(resumed_params[i]));
    }
  }
}

}  // namespace
}  // namespace accel::optim
