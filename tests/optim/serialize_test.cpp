// Optimizer state files: for every optimizer kind, saving after 3 steps and loading into a fresh
// optimizer over copies of the parameters continues bit-for-bit as the uninterrupted run; every
// option and initial_lr survives; mismatched optimizers and bad files give clear errors.
#include "accel/optim/serialize.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "accel/accel.h"
#include "nn/io_test_util.h"
#include "support/expect_error.h"

namespace accel::optim {
namespace {

using testing::expect_error_containing;
using testing_io::ScratchDir;

using MakeOptimizer = std::function<std::unique_ptr<Optimizer>(const std::vector<Tensor>&)>;

// Two parameters with fixed starting values (a matrix and a vector).
std::vector<Tensor> initial_params() {
  manual_seed(7);
  return {randn({3, 2}).requires_grad_(), randn({2}).requires_grad_()};
}

std::vector<Tensor> copies(const std::vector<Tensor>& params) {
  std::vector<Tensor> out;
  for (const Tensor& p : params) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

// One step on a loss whose gradient changes with the parameters and the step.
void train_step(Optimizer& optimizer, const std::vector<Tensor>& params, int step) {
  optimizer.zero_grad();
  Tensor loss = zeros({});
  for (const Tensor& p : params) loss = loss + (p * p * (1.0 + step)).sum() + p.sin().sum();
  loss.backward();
  optimizer.step();
}

void expect_same_values(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(a[i].equal(b[i])) << "parameter " << i;
}

// Uninterrupted 6 steps vs 3 steps, save, load into a fresh optimizer over copies, 3 steps.
void expect_exact_resume(const MakeOptimizer& make) {
  ScratchDir dir;
  const std::vector<Tensor> straight = initial_params();
  std::unique_ptr<Optimizer> reference = make(straight);
  for (int step = 0; step < 6; ++step) train_step(*reference, straight, step);

  const std::vector<Tensor> first = initial_params();
  std::unique_ptr<Optimizer> before = make(first);
  for (int step = 0; step < 3; ++step) train_step(*before, first, step);
  const std::string path = dir.file("optimizer.safetensors");
  save(*before, path);

  const std::vector<Tensor> resumed = copies(first);
  std::unique_ptr<Optimizer> after = make(resumed);
  load(*after, path);
  for (int step = 3; step < 6; ++step) train_step(*after, resumed, step);
  expect_same_values(resumed, straight);
}

// Two groups, the second with its own options, so every option must round-trip.
template <typename Opt, typename Options>
MakeOptimizer two_groups(Options defaults, Options second) {
  return [=](const std::vector<Tensor>& params) {
    return std::make_unique<Opt>(
        std::vector<OptimizerParamGroup>{{{params[0]}}, {{params[1]}, second}}, defaults);
  };
}

TEST(OptimizerStateFile, SGDResumesExactly) {
  expect_exact_resume(
      two_groups<SGD>(SGDOptions(0.05).momentum(0.9).nesterov(true),
                      SGDOptions(0.1).momentum(0.5).dampening(0.1).weight_decay(0.01)));
}

TEST(OptimizerStateFile, AdamResumesExactly) {
  expect_exact_resume(two_groups<Adam>(AdamOptions(0.01).amsgrad(true),
                                       AdamOptions(0.02).betas({0.8, 0.99}).weight_decay(0.1)));
}

TEST(OptimizerStateFile, AdamWResumesExactly) {
  expect_exact_resume(two_groups<AdamW>(AdamWOptions(0.01), AdamWOptions(0.03).eps(1e-6)));
}

TEST(OptimizerStateFile, RMSpropResumesExactly) {
  expect_exact_resume(two_groups<RMSprop>(RMSpropOptions(0.01).momentum(0.9).centered(true),
                                          RMSpropOptions(0.02).alpha(0.9).maximize(true)));
}

TEST(OptimizerStateFile, AdagradResumesExactly) {
  expect_exact_resume(
      two_groups<Adagrad>(AdagradOptions(0.1).lr_decay(0.01),
                          AdagradOptions(0.05).initial_accumulator_value(0.1).weight_decay(0.01)));
}

TEST(OptimizerStateFile, AdamaxResumesExactly) {
  expect_exact_resume(two_groups<Adamax>(AdamaxOptions(0.02).weight_decay(0.1),
                                         AdamaxOptions(0.05).betas({0.8, 0.9}).maximize(true)));
}

TEST(OptimizerStateFile, NAdamResumesExactly) {
  expect_exact_resume(two_groups<NAdam>(
      NAdamOptions(0.02).momentum_decay(0.1),
      NAdamOptions(0.05).eps(1e-6).weight_decay(0.1).decoupled_weight_decay(true)));
}

// beta2 = 0.9 crosses the rectification switch at step 6, after the reload.
TEST(OptimizerStateFile, RAdamResumesExactly) {
  expect_exact_resume(two_groups<RAdam>(
      RAdamOptions(0.02).betas({0.9, 0.9}),
      RAdamOptions(0.05).betas({0.8, 0.9}).weight_decay(0.1).decoupled_weight_decay(true)));
}

TEST(OptimizerStateFile, AdadeltaResumesExactly) {
  expect_exact_resume(two_groups<Adadelta>(AdadeltaOptions(0.5).rho(0.8),
                                           AdadeltaOptions().eps(1e-4).weight_decay(0.1)));
}

TEST(OptimizerStateFile, RpropResumesExactly) {
  expect_exact_resume(two_groups<Rprop>(RpropOptions(0.02).etas({0.4, 1.3}),
                                        RpropOptions(0.05).step_sizes({1e-3, 0.5}).maximize(true)));
}

// t0 = 2 starts the averaging before the reload.
TEST(OptimizerStateFile, ASGDResumesExactly) {
  expect_exact_resume(two_groups<ASGD>(ASGDOptions(0.02).lambd(0.01).t0(2),
                                       ASGDOptions(0.05).alpha(0.5).weight_decay(0.1)));
}

TEST(OptimizerStateFile, KeepsEveryOptionAndInitialLr) {
  ScratchDir dir;
  const std::vector<Tensor> params = initial_params();
  AdamW saved({params[0]}, AdamWOptions(0.25).betas({0.7, 0.8}).eps(1e-3).weight_decay(0.5));
  saved.param_groups()[0].set_initial_lr(0.125);
  saved.param_groups()[0].options().set_lr(1.0 / 3.0);
  save(saved, dir.file("state.safetensors"));

  AdamW loaded({copies(params)[0]}, AdamWOptions(0.9).amsgrad(true).maximize(true));
  load(loaded, dir.file("state.safetensors"));
  const auto& options = static_cast<const AdamWOptions&>(loaded.param_groups()[0].options());
  EXPECT_EQ(options.lr(), 1.0 / 3.0);
  EXPECT_EQ(options.betas(), Betas(0.7, 0.8));
  EXPECT_EQ(options.eps(), 1e-3);
  EXPECT_EQ(options.weight_decay(), 0.5);
  EXPECT_FALSE(options.amsgrad());
  EXPECT_FALSE(options.maximize());
  EXPECT_EQ(loaded.param_groups()[0].initial_lr(), 0.125);
  EXPECT_TRUE(loaded.state(loaded.param_groups()[0].params()[0]).empty());
}

TEST(OptimizerStateFile, StateDictFunctionsRoundTripTheTensors) {
  ScratchDir dir;
  const std::vector<Tensor> params = initial_params();
  RMSprop optimizer(params, RMSpropOptions(0.01).centered(true));
  train_step(optimizer, params, 0);
  save_optimizer_state(optimizer.state_dict(), dir.file("s.safetensors"));
  const OptimizerStateDict dict = load_optimizer_state(dir.file("s.safetensors"));
  ASSERT_EQ(dict.param_groups.size(), 1u);
  EXPECT_EQ(dict.param_groups[0].params, (std::vector<int64_t>{0, 1}));
  ASSERT_EQ(dict.state.size(), 2u);
  for (int64_t i = 0; i < 2; ++i) {
    for (const auto& [key, value] : optimizer.state(params[i])) {
      EXPECT_TRUE(dict.state.at(i).at(key).equal(value)) << i << " " << key;
    }
    EXPECT_EQ(dict.state.at(i).size(), optimizer.state(params[i]).size());
  }
}

// A saved Adam over initial_params() after one step, for the error tests.
std::string saved_adam(const ScratchDir& dir) {
  const std::vector<Tensor> params = initial_params();
  Adam adam(params, AdamOptions(0.01));
  train_step(adam, params, 0);
  const std::string path = dir.file("adam.safetensors");
  save(adam, path);
  return path;
}

TEST(OptimizerStateFile, MismatchedOptimizersNameWhatDiffers) {
  ScratchDir dir;
  const std::string path = saved_adam(dir);
  const std::vector<Tensor> params = copies(initial_params());

  SGD sgd(params, SGDOptions(0.1));
  expect_error_containing([&] { load(sgd, path); },
                          "expected the state of a SGD optimizer, found the state of Adam");
  Adam two_groups(std::vector<OptimizerParamGroup>{{{params[0]}}, {{params[1]}}});
  expect_error_containing([&] { load(two_groups, path); },
                          "the state dict has 1 parameter groups but the optimizer has 2");
  Adam fewer({params[0]});
  expect_error_containing([&] { load(fewer, path); },
                          "group 0 of the state dict has 2 parameters but the optimizer's has 1");
  Adam misshaped({params[1], params[0]});
  expect_error_containing([&] { load(misshaped, path); }, "has shape [3, 2] but the parameter");
  // A failed load leaves the optimizer as it was.
  EXPECT_TRUE(misshaped.state(params[0]).empty());
  EXPECT_EQ(misshaped.param_groups()[0].options().get_lr(), 1e-3);
}

TEST(OptimizerStateFile, BadFilesGiveClearErrors) {
  ScratchDir dir;
  const std::string path = saved_adam(dir);
  const std::vector<Tensor> params = copies(initial_params());
  Adam adam(params);

  expect_error_containing([&] { load(adam, dir.file("missing.safetensors")); }, "cannot open");

  const std::string truncated = dir.file("truncated.safetensors");
  std::filesystem::copy_file(path, truncated);
  std::filesystem::resize_file(truncated, std::filesystem::file_size(path) - 5);
  expect_error_containing([&] { load(adam, truncated); }, "truncated.safetensors");

  // A model's weights file is safetensors too, but not optimizer state.
  const std::string weights = dir.file("weights.safetensors");
  io::save_safetensors(weights, {{"weight", zeros({2})}});
  expect_error_containing([&] { load_optimizer_state(weights); },
                          "expected an optimizer state file");

  const auto with_metadata = [&](const std::string& groups, const io::NamedTensors& tensors) {
    const std::string file = dir.file("crafted.safetensors");
    io::save_safetensors(
        file, tensors,
        {{"format", "accel.optimizer_state.v1"}, {"optimizer", "Adam"}, {"param_groups", groups}});
    return file;
  };
  expect_error_containing([&] { load_optimizer_state(with_metadata("{not json", {})); },
                          "metadata \"param_groups\" is not valid JSON");
  expect_error_containing(
      [&] {
        load_optimizer_state(with_metadata(
            R"({"param_groups": [{"params": [0], "initial_lr": null, "options": {"lr": 0.1}}]})",
            {}));
      },
      "option \"betas\" is missing");
  expect_error_containing(
      [&] {
        load_optimizer_state(with_metadata(R"({"param_groups": []})", {{"step", zeros({})}}));
      },
      "expected tensor names \"state.<index>.<key>\", found \"step\"");
  EXPECT_TRUE(adam.state(params[0]).empty());
}

// Crafted state files: options the constructors reject, deep nesting, numbers beyond double,
// duplicate and bad state are all errors naming the problem; nothing is installed.
TEST(OptimizerStateFile, HostileFilesAreRejectedAsTheConstructorsWould) {
  ScratchDir dir;
  const std::vector<Tensor> params = copies(initial_params());
  const auto crafted = [&](const std::string& kind, const std::string& options,
                           const io::NamedTensors& tensors = {}) {
    const std::string file = dir.file("crafted.safetensors");
    const std::string groups = R"({"param_groups": [{"params": [0, 1], "initial_lr": null, )"
                               R"("options": )" +
                               options + "}]}";
    io::save_safetensors(
        file, tensors,
        {{"format", "accel.optimizer_state.v1"}, {"optimizer", kind}, {"param_groups", groups}});
    return file;
  };
  const std::string adam_options =
      R"({"lr": 0.1, "betas": [%s], "eps": 1e-8, "weight_decay": 0.0, "amsgrad": false, )"
      R"("maximize": false})";
  const auto adam_with_betas = [&](const std::string& betas) {
    std::string options = adam_options;
    return options.replace(options.find("%s"), 2, betas);
  };
  Adam adam(params);
  expect_error_containing([&] { load(adam, crafted("Adam", adam_with_betas("1.0, 0.999"))); },
                          "invalid beta1: 1");
  expect_error_containing([&] { load(adam, crafted("Adam", adam_with_betas("0.9, 1e400"))); },
                          "crafted.safetensors");
  expect_error_containing([&] { load(adam, crafted("Adam", adam_with_betas("true, 0.9"))); },
                          "option \"betas\" must be two numbers");
  expect_error_containing(
      [&] {
        load(adam, crafted("Adam", adam_with_betas("0.9, 0.999"),
                           {{"state.0.step", full({}, std::nan(""))}}));
      },
      "state \"step\" of parameter 0 must be a non-negative number");
  expect_error_containing(
      [&] {
        load(adam, crafted("Adam", adam_with_betas("0.9, 0.999"),
                           {{"state.1.step", zeros({})}, {"state.01.step", zeros({})}}));
      },
      "state \"step\" of parameter 1 appears twice");
  EXPECT_TRUE(adam.state(params[0]).empty());

  SGD sgd(params, SGDOptions(0.1));
  const auto sgd_options = [](const std::string& lr, const std::string& momentum) {
    return R"({"lr": )" + lr + R"(, "momentum": )" + momentum +
           R"(, "dampening": 0.0, "weight_decay": 0.0, "nesterov": false, "maximize": false})";
  };
  expect_error_containing([&] { load(sgd, crafted("SGD", sgd_options("-1", "0.0"))); },
                          "invalid learning rate: -1");
  expect_error_containing([&] { load(sgd, crafted("SGD", sgd_options("0.1", "-0.5"))); },
                          "invalid momentum: -0.5");
  const std::string deep = std::string(50'000, '[') + std::string(50'000, ']');
  expect_error_containing([&] { load(sgd, crafted("SGD", deep)); }, "nested more than 8 deep");
  EXPECT_DOUBLE_EQ(sgd.param_groups()[0].options().get_lr(), 0.1);
}

}  // namespace
}  // namespace accel::optim
