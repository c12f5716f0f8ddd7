// LBFGS against torch.optim.LBFGS: each case of the "lbfgs" fixture
// (tests/reference/generate_optim_fixtures.py) minimizes the Rosenbrock function of two float64
// parameters with a closure and must match PyTorch's parameters, returned losses and evaluation
// and iteration counts after every step; the state survives state_dict and files exactly; a
// least-squares fit reaches the lstsq solution; misuse and malformed states are clear errors.
#include "accel/optim/lbfgs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "accel/accel.h"
#include "nn/io_test_util.h"
#include "support/expect_error.h"

namespace accel::optim {
namespace {

using testing::expect_error_containing;

const std::map<std::string, LBFGSOptions>& cases() {
  static const std::map<std::string, LBFGSOptions> table = {
      {"lbfgs_fixed_step", LBFGSOptions(0.1).max_iter(5)},
      {"lbfgs_history_2", LBFGSOptions(0.2).max_iter(4).history_size(2)},
      {"lbfgs_strong_wolfe", LBFGSOptions().max_iter(5).line_search_fn("strong_wolfe")},
      {"lbfgs_strong_wolfe_max_eval",
       LBFGSOptions().max_iter(10).max_eval(4).history_size(3).line_search_fn("strong_wolfe")},
      {"lbfgs_maximize",
       LBFGSOptions(0.1).max_iter(3).maximize(true).line_search_fn("strong_wolfe")},
      {"lbfgs_converges",
       LBFGSOptions().max_iter(100).tolerance_change(1e-12).line_search_fn("strong_wolfe")},
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

// The fixture's starting parameters: shapes [3] and [2, 2], float64 unless converted.
std::vector<Tensor> initial_params(ScalarType dtype = kFloat64) {
  const nlohmann::json& initial = fixture()["initial"];
  return {tensor(initial[0].get<std::vector<double>>()).to(dtype).requires_grad_(),
          tensor(initial[1].get<std::vector<double>>()).reshape({2, 2}).to(dtype).requires_grad_()};
}

std::vector<Tensor> copies(const std::vector<Tensor>& params) {
  std::vector<Tensor> out;
  for (const Tensor& p : params) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

// sum over i of 100 (z[i+1] - z[i]^2)^2 + (1 - z[i])^2, z every parameter element in order.
Tensor rosenbrock(const std::vector<Tensor>& params) {
  const Tensor z = cat({params[0].reshape({-1}), params[1].reshape({-1})});
  const Tensor x = z.narrow(0, 0, z.numel() - 1);
  const Tensor y = z.narrow(0, 1, z.numel() - 1);
  const Tensor r = y - x * x;
  return (100 * r * r + (1 - x) * (1 - x)).sum();
}

// The closure PyTorch's generator uses: sign * rosenbrock, sign -1 under maximize.
LossClosure rosenbrock_closure(Optimizer& opt, const std::vector<Tensor>& params, double sign) {
  return [&opt, params, sign] {
    opt.zero_grad();
    Tensor loss = rosenbrock(params) * sign;
    loss.backward();
    return loss;
  };
}

double state_number(const Optimizer& opt, const Tensor& param, const char* key) {
  return opt.state(param).at(key).item<double>();
}

void expect_close(double got, double expected, const std::string& what) {
  EXPECT_LE(std::abs(got - expected), 1e-9 * std::max(1.0, std::abs(expected)))
      << what << ": " << got << " vs PyTorch " << expected;
}

void expect_step_matches(const LBFGS& opt, const std::vector<Tensor>& params, const Tensor& loss,
                         const nlohmann::json& expected, size_t step) {
  const std::string at = fmt::format("step {}", step + 1);
  expect_close(loss.item<double>(), expected["loss"].get<double>(), at + " loss");
  EXPECT_EQ(state_number(opt, params[0], "func_evals"), expected["func_evals"].get<double>()) << at;
  EXPECT_EQ(state_number(opt, params[0], "n_iter"), expected["n_iter"].get<double>()) << at;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto ref = expected["params"][i].get<std::vector<double>>();
    const Tensor p = params[i].detach().reshape({-1});
    for (size_t k = 0; k < ref.size(); ++k) {
      expect_close(p[static_cast<int64_t>(k)].item<double>(), ref[k],
                   fmt::format("{} parameter {} element {}", at, i, k));
    }
  }
}

double sign_of(const LBFGSOptions& options) { return options.maximize() ? -1.0 : 1.0; }

TEST(LBFGS, TableCoversFixture) {
  for (const auto& [name, _] : fixture()["lbfgs"].items()) {
    EXPECT_TRUE(cases().contains(name)) << name << " is in the fixture but not the table";
  }
  for (const auto& [name, _] : cases()) {
    EXPECT_TRUE(fixture()["lbfgs"].contains(name)) << name << " is not in the fixture";
  }
}

TEST(LBFGS, MatchesPyTorch) {
  for (const auto& [name, options] : cases()) {
    SCOPED_TRACE(name);
    const nlohmann::json& steps = fixture()["lbfgs"][name];
    const std::vector<Tensor> params = initial_params();
    LBFGS opt(params, options);
    const LossClosure closure = rosenbrock_closure(opt, params, sign_of(options));
    for (size_t step = 0; step < steps.size(); ++step) {
      const Tensor loss = opt.step(closure);
      expect_step_matches(opt, params, loss, steps[step], step);
    }
  }
}

// Halfway, a fresh LBFGS over copies of the parameters loads the state (through a state dict,
// or a file); both then take identical steps, matching PyTorch.
TEST(LBFGS, StateRoundTripContinuesIdentically) {
  testing_io::ScratchDir dir;
  for (const bool through_file : {false, true}) {
    for (const auto& [name, options] : cases()) {
      SCOPED_TRACE(name + (through_file ? " through a file" : ""));
      const nlohmann::json& steps = fixture()["lbfgs"][name];
      const std::vector<Tensor> params = initial_params();
      LBFGS opt(params, options);
      const size_t half = steps.size() / 2;
      for (size_t step = 0; step < half; ++step) {
        opt.step(rosenbrock_closure(opt, params, sign_of(options)));
      }
      const std::vector<Tensor> resumed_params = copies(params);
      LBFGS resumed(resumed_params, LBFGSOptions(5.0).history_size(1));  // options come back too
      if (through_file) {
        save(opt, dir.file(name + ".safetensors"));
        load(resumed, dir.file(name + ".safetensors"));
      } else {
        resumed.load_state_dict(opt.state_dict());
      }
      for (size_t step = half; step < steps.size(); ++step) {
        opt.step(rosenbrock_closure(opt, params, sign_of(options)));
        const Tensor loss =
            resumed.step(rosenbrock_closure(resumed, resumed_params, sign_of(options)));
        expect_step_matches(resumed, resumed_params, loss, steps[step], step);
        for (size_t i = 0; i < params.size(); ++i) {
          EXPECT_TRUE(params[i].equal(resumed_params[i])) << "step " << step + 1;
        }
      }
    }
  }
}

// The state after the first iterations: counts, the last direction and step length, the
// gradient, and history pairs numbered from 0, at most history_size of them.
TEST(LBFGS, StateNamesFollowPyTorch) {
  const std::vector<Tensor> params = initial_params();
  LBFGS opt(params, LBFGSOptions(0.1).max_iter(5).history_size(2));
  opt.step(rosenbrock_closure(opt, params, 1.0));
  std::vector<std::string> keys;
  for (const auto& [key, value] : opt.state(params[0])) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"H_diag", "d", "func_evals", "n_iter", "old_dirs.0",
                                            "old_dirs.1", "old_stps.0", "old_stps.1",
                                            "prev_flat_grad", "prev_loss", "ro.0", "ro.1", "t"}));
  EXPECT_EQ(opt.state(params[0]).at("d").sizes(), (std::vector<int64_t>{7}));
  EXPECT_EQ(opt.state(params[0]).at("t").item<double>(), 0.1);
  EXPECT_TRUE(opt.state(params[1]).empty());
}

// A linear least-squares fit: LBFGS with the line search reaches linalg::lstsq's solution.
TEST(LBFGS, FitsLeastSquaresToTheLstsqSolution) {
  manual_seed(3);
  const Tensor inputs = randn({64, 5}, kFloat64);
  const Tensor targets =
      inputs.matmul(tensor({1.0, -2.0, 0.5, 3.0, -1.0})) + 0.1 * randn({64}, kFloat64);
  Tensor weight = zeros({5}, kFloat64).requires_grad_();
  // A small tolerance_change: near the minimum the loss changes by the square of the error.
  LBFGS opt({weight}, LBFGSOptions().tolerance_change(1e-15).line_search_fn("strong_wolfe"));
  const auto closure = [&] {
    opt.zero_grad();
    Tensor loss = (inputs.matmul(weight) - targets).pow(2).mean();
    loss.backward();
    return loss;
  };
  opt.step(closure);
  const Tensor solution = std::get<0>(linalg::lstsq(inputs, targets.unsqueeze(1))).squeeze(1);
  EXPECT_LT((weight.detach() - solution).abs().max().item<double>(), 1e-7)
      << weight << " vs " << solution;
}

// float32 parameters: the flat vectors are float32, the numbers between steps float64, and the
// search still finds Rosenbrock's minimum.
TEST(LBFGS, MinimizesFloat32Parameters) {
  const std::vector<Tensor> params = initial_params(kFloat32);
  LBFGS opt(params, LBFGSOptions().line_search_fn("strong_wolfe"));
  for (int step = 0; step < 5; ++step) opt.step(rosenbrock_closure(opt, params, 1.0));
  EXPECT_EQ(opt.state(params[0]).at("d").dtype(), kFloat32);
  EXPECT_EQ(opt.state(params[0]).at("t").dtype(), kFloat64);
  EXPECT_LT(rosenbrock(params).item<double>(), 1e-6);
}

TEST(LBFGS, MisuseIsAClearError) {
  std::vector<Tensor> params = initial_params();
  LBFGS opt(params);
  params[0].set_grad(ones_like(params[0]));
  expect_error_containing([&] { opt.step(); }, "LBFGS: step needs a closure");
  expect_error_containing([&] { opt.step(LossClosure()); }, "LBFGS: step needs a closure");
  expect_error_containing([&] { opt.step([] { return ones({2}); }); },
                          "LBFGS: the closure must return the loss as a one-element tensor; got "
                          "shape [2]");
  expect_error_containing(
      [&] {
        LBFGS two({OptimizerParamGroup({params[0]}), OptimizerParamGroup({params[1]})});
      },
      "LBFGS: got 2 parameter groups; LBFGS takes one");
  expect_error_containing([&] { LBFGS({params[0]}, LBFGSOptions().max_iter(0)); },
                          "LBFGS: invalid max_iter: 0 (expected >= 1)");
  expect_error_containing([&] { LBFGS({params[0]}, LBFGSOptions().max_eval(0)); },
                          "LBFGS: invalid max_eval: 0");
  expect_error_containing([&] { LBFGS({params[0]}, LBFGSOptions().history_size(0)); },
                          "LBFGS: invalid history_size: 0");
  expect_error_containing([&] { LBFGS({params[0]}, LBFGSOptions().line_search_fn("armijo")); },
                          "LBFGS: invalid line_search_fn: \"armijo\" (expected \"strong_wolfe\" "
                          "or none)");
  const std::vector<Tensor> mixed = {zeros({2}, kFloat64).requires_grad_(),
                                     zeros({2}, kFloat32).requires_grad_()};
  LBFGS mixed_opt(mixed);
  expect_error_containing([&] { mixed_opt.step([&] { return mixed[0].sum(); }); },
                          "LBFGS: every parameter must have one dtype and device");
}

// A state dict LBFGS could not continue from is refused, naming what is wrong.
TEST(LBFGS, LoadStateDictChecksTheState) {
  const std::vector<Tensor> params = initial_params();
  LBFGS opt(params, LBFGSOptions(0.1).max_iter(4));  // 4 iterations, 3 history pairs
  opt.step(rosenbrock_closure(opt, params, 1.0));
  const OptimizerStateDict good = opt.state_dict();
  ASSERT_TRUE(good.state.at(0).contains("ro.2"));
  LBFGS other(copies(params));
  const auto expect_refused = [&](const std::function<void(OptimizerStateDict&)>& corrupt,
                                  const std::string& message) {
    OptimizerStateDict dict = good;
    corrupt(dict);
    expect_error_containing([&] { other.load_state_dict(dict); }, message);
  };
  expect_refused([](OptimizerStateDict& d) { d.state[0]["exp_avg"] = zeros({7}); },
                 "LBFGS: unknown state \"exp_avg\" of parameter 0");
  expect_refused([](OptimizerStateDict& d) { d.state[0]["d"] = zeros({6}, kFloat64); },
                 "state \"d\" of parameter 0 must be a vector of the parameters' 7 elements; got "
                 "shape [6]");
  expect_refused([](OptimizerStateDict& d) { d.state[0]["t"] = zeros({1}, kFloat64); },
                 "state \"t\" of parameter 0 must be a floating point number without dimensions");
  expect_refused([](OptimizerStateDict& d) { d.state[0].erase("prev_loss"); },
                 "has 4 of \"d\", \"t\", \"H_diag\", \"prev_flat_grad\" and \"prev_loss\" "
                 "after 4 iterations (\"n_iter\"); expected all");
  expect_refused([](OptimizerStateDict& d) { d.state[0]["n_iter"] = scalar_tensor(0.0, kFloat64); },
                 "has 5 of \"d\", \"t\", \"H_diag\", \"prev_flat_grad\" and \"prev_loss\" "
                 "after 0 iterations (\"n_iter\"); expected none");
  expect_refused([](OptimizerStateDict& d) { d.state[0].erase("ro.1"); },
                 "must hold \"old_dirs.<i>\", \"old_stps.<i>\" and \"ro.<i>\" for i = 0, 1, ... "
                 "together; got 3, 3 and 2 entries");
  expect_refused([](OptimizerStateDict& d) { d.state[0]["n_iter"] = scalar_tensor(1.5, kFloat64); },
                 "state \"n_iter\" of parameter 0 must be a count; got 1.5");
  expect_refused([](OptimizerStateDict& d) { d.state[1]["d"] = zeros({7}, kFloat64); },
                 "LBFGS: keeps its state with parameter 0; the state dict has state for "
                 "parameter 1");
  // Refused dicts changed nothing; the good one loads.
  EXPECT_TRUE(other.state(other.param_groups()[0].params()[0]).empty());
  other.load_state_dict(good);
  EXPECT_EQ(state_number(other, other.param_groups()[0].params()[0], "n_iter"), 4.0);
}

}  // namespace
}  // namespace accel::optim
