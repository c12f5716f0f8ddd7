// LR scheduler sequences against PyTorch: each case of
// tests/reference/fixtures/optim_schedulers.json (generate_optim_fixtures.py) steps a scheduler
// 120 times over a two-group optimizer; the rates and the cycled momentum must match
// torch.optim.lr_scheduler to 1e-10 relative, also after a state_dict round trip half way.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "accel/accel.h"
#include "accel/optim/adagrad.h"
#include "accel/optim/adam.h"
#include "accel/optim/schedulers/chained_scheduler.h"
#include "accel/optim/schedulers/constant_lr.h"
#include "accel/optim/schedulers/cosine_annealing_lr.h"
#include "accel/optim/schedulers/cosine_annealing_warm_restarts.h"
#include "accel/optim/schedulers/cyclic_lr.h"
#include "accel/optim/schedulers/lambda_lr.h"
#include "accel/optim/schedulers/linear_lr.h"
#include "accel/optim/schedulers/multiplicative_lr.h"
#include "accel/optim/schedulers/one_cycle_lr.h"
#include "accel/optim/schedulers/polynomial_lr.h"
#include "accel/optim/schedulers/reduce_lr_on_plateau.h"
#include "accel/optim/schedulers/sequential_lr.h"
#include "accel/optim/schedulers/step_lr.h"
#include "accel/optim/sgd.h"

namespace accel::optim {
namespace {

// A scheduler of either kind behind one interface (ReduceLROnPlateau steps with the metric).
struct Driven {
  std::function<void(double metric)> step;
  std::function<std::vector<double>()> last_lr;
  std::function<LRSchedulerState()> save;
  std::function<void(const LRSchedulerState&)> load;
};

template <typename S>
Driven drive(std::shared_ptr<S> s) {
  Driven d;
  if constexpr (std::is_same_v<S, ReduceLROnPlateau>) {
    d.step = [s](double metric) { s->step(metric); };
  } else {
    d.step = [s](double) { s->step(); };
  }
  d.last_lr = [s] { return s->get_last_lr(); };
  d.save = [s] { return s->state_dict(); };
  d.load = [s](const LRSchedulerState& state) { s->load_state_dict(state); };
  return d;
}

struct Case {
  bool adam = false;
  std::function<Driven(std::shared_ptr<Optimizer>)> make;
};

using OneCycle = OneCycleLROptions;
using Plateau = ReduceLROnPlateauOptions;
using Cyclic = CyclicLROptions;

const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> table = {
      {"step_lr", {false, [](auto o) { return drive(std::make_shared<StepLR>(o, 7, 0.5)); }}},
      {"multi_step_lr",
       {false,
        [](auto o) {
          return drive(std::make_shared<MultiStepLR>(o, std::vector<int64_t>{10, 30, 30, 80}, 0.3));
        }}},
      {"exponential_lr",
       {false, [](auto o) { return drive(std::make_shared<ExponentialLR>(o, 0.97)); }}},
      {"cosine_annealing_lr",
       {false, [](auto o) { return drive(std::make_shared<CosineAnnealingLR>(o, 40, 0.001)); }}},
      {"linear_lr",
       {false, [](auto o) { return drive(std::make_shared<LinearLR>(o, 0.25, 0.9, 30)); }}},
      {"lambda_lr",
       {false,
        [](auto o) {
          return drive(std::make_shared<LambdaLR>(
              o, [](int64_t e) { return std::pow(0.95, static_cast<double>(e)); }));
        }}},
      {"one_cycle_lr",
       {false, [](auto o) { return drive(std::make_shared<OneCycleLR>(o, 0.5, 121)); }}},
      {"one_cycle_lr_adam_three_phase_linear",
       {true,
        [](auto o) {
          return drive(
              std::make_shared<OneCycleLR>(o, 0.3, 121,
                                           OneCycle()
                                               .pct_start(0.25)
                                               .anneal_strategy(OneCycle::AnnealStrategy::Linear)
                                               .three_phase(true)
                                               .div_factor(10)
                                               .final_div_factor(100)));
        }}},
      {"sequential_lr",
       {false,
        [](auto o) {
          std::vector<std::shared_ptr<LRScheduler>> parts = {
              std::make_shared<LinearLR>(o, 0.1, 1.0, 10),
              std::make_shared<CosineAnnealingLR>(o, 50), std::make_shared<ExponentialLR>(o, 0.9)};
          return drive(std::make_shared<SequentialLR>(o, parts, std::vector<int64_t>{10, 60}));
        }}},
      {"reduce_lr_on_plateau",
       {false,
        [](auto o) {
          return drive(std::make_shared<ReduceLROnPlateau>(
              o, Plateau().factor(0.5).patience(3).threshold(0.01).cooldown(2).min_lr(0.002)));
        }}},
      {"reduce_lr_on_plateau_max_abs",
       {false,
        [](auto o) {
          return drive(std::make_shared<ReduceLROnPlateau>(
              o, Plateau()
                     .mode(Plateau::Mode::Max)
                     .factor(0.3)
                     .patience(2)
                     .threshold(0.1)
                     .threshold_mode(Plateau::ThresholdMode::Abs)));
        }}},
      {"constant_lr",
       {false, [](auto o) { return drive(std::make_shared<ConstantLR>(o, 0.4, 9)); }}},
      {"polynomial_lr",
       {false, [](auto o) { return drive(std::make_shared<PolynomialLR>(o, 50, 1.7)); }}},
      {"multiplicative_lr",
       {false,
        [](auto o) {
          return drive(std::make_shared<MultiplicativeLR>(
              o, [](int64_t e) { return e % 3 != 0 ? 0.99 : 0.9; }));
        }}},
      {"multiplicative_lr_per_group",
       {false,
        [](auto o) {
          return drive(std::make_shared<MultiplicativeLR>(
              o, std::vector<MultiplicativeLR::Lambda>{
                     [](int64_t) { return 0.97; },
                     [](int64_t e) { return 1.0 - 0.002 * static_cast<double>(e); }}));
        }}},
      {"cosine_annealing_warm_restarts",
       {false,
        [](auto o) {
          return drive(std::make_shared<CosineAnnealingWarmRestarts>(o, 7, 2, 0.001));
        }}},
      {"cosine_annealing_warm_restarts_t_mult_1",
       {false, [](auto o) { return drive(std::make_shared<CosineAnnealingWarmRestarts>(o, 10)); }}},
      {"cyclic_lr_triangular",
       {false,
        [](auto o) {
          return drive(std::make_shared<CyclicLR>(o, 0.01, 0.1,
                                                  Cyclic().step_size_up(10).step_size_down(15)));
        }}},
      {"cyclic_lr_triangular2_adam_per_group",
       {true,
        [](auto o) {
          return drive(std::make_shared<CyclicLR>(o, std::vector<double>{0.001, 0.002},
                                                  std::vector<double>{0.05, 0.03},
                                                  Cyclic()
                                                      .step_size_up(8)
                                                      .mode(Cyclic::Mode::Triangular2)
                                                      .base_momentum(0.85)
                                                      .max_momentum(0.95)));
        }}},
      {"cyclic_lr_exp_range",
       {false,
        [](auto o) {
          return drive(std::make_shared<CyclicLR>(
              o, 0.02, 0.2, Cyclic().step_size_up(12).mode(Cyclic::Mode::ExpRange).gamma(0.99)));
        }}},
      {"cyclic_lr_scale_fn_iterations",
       {false,
        [](auto o) {
          return drive(
              std::make_shared<CyclicLR>(o, 0.01, 0.1,
                                         Cyclic()
                                             .step_size_up(6)
                                             .step_size_down(3)
                                             .scale_fn([](double x) { return 1 / (1 + 0.01 * x); })
                                             .scale_mode(Cyclic::ScaleMode::Iterations)
                                             .cycle_momentum(false)));
        }}},
      {"cyclic_lr_scale_fn_cycle_sawtooth",
       {false,
        [](auto o) {
          return drive(std::make_shared<CyclicLR>(
              o, 0.01, 0.1, Cyclic().step_size_up(5).step_size_down(0).scale_fn([](double cycle) {
                return std::pow(0.8, cycle);
              })));
        }}},
      {"chained_scheduler",
       {false,
        [](auto o) {
          return drive(std::make_shared<ChainedScheduler>(std::vector<std::shared_ptr<LRScheduler>>{
              std::make_shared<ConstantLR>(o, 0.5, 12), std::make_shared<ExponentialLR>(o, 0.98),
              std::make_shared<PolynomialLR>(o, 80, 0.5)}));
        }}},
  };
  return table;
}

const nlohmann::json& fixture() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(ACCEL_FIXTURE_DIR) + "/optim_schedulers.json");
    EXPECT_TRUE(in.good()) << "missing optim_schedulers.json";
    return nlohmann::json::parse(in);
  }();
  return data;
}

// An optimizer with two groups at rates 0.1 and 0.05, as the generator builds.
std::shared_ptr<Optimizer> make_optimizer(bool adam) {
  std::vector<OptimizerParamGroup> groups = {OptimizerParamGroup({zeros({2}).requires_grad_()}),
                                             OptimizerParamGroup({zeros({1}).requires_grad_()})};
  if (adam) {
    groups[1] = OptimizerParamGroup(groups[1].params(), AdamOptions(0.05));
    return std::make_shared<Adam>(groups, AdamOptions(0.1));
  }
  groups[1] = OptimizerParamGroup(groups[1].params(), SGDOptions(0.05).momentum(0.9));
  return std::make_shared<SGD>(groups, SGDOptions(0.1).momentum(0.9));
}

void expect_row(const Driven& d, const Optimizer& opt, const nlohmann::json& row, int step) {
  const auto expected = row.get<std::vector<double>>();
  std::vector<double> got = d.last_lr();
  got.push_back(*opt.param_groups()[0].options().get_momentum());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_LE(std::abs(got[i] - expected[i]), 1e-10 * std::abs(expected[i]) + 1e-300)
        << "after step " << step << ", value " << i << ": " << got[i] << " vs PyTorch "
        << expected[i];
  }
  // The optimizer's groups run at the rates reported.
  for (size_t g = 0; g + 1 < got.size(); ++g) {
    EXPECT_EQ(opt.param_groups()[g].options().get_lr(), got[g]);
  }
}

TEST(LRScheduler, TableCoversFixture) {
  for (const auto& [name, _] : fixture()["cases"].items()) {
    EXPECT_TRUE(cases().count(name)) << name << " is in the fixture but not the table";
  }
  for (const auto& [name, _] : cases()) {
    EXPECT_TRUE(fixture()["cases"].contains(name)) << name << " is not in the fixture";
  }
}

TEST(LRScheduler, SequencesMatchPyTorch) {
  const auto metrics = fixture()["metrics"].get<std::vector<double>>();
  for (const auto& [name, c] : cases()) {
    SCOPED_TRACE(name);
    const nlohmann::json& rows = fixture()["cases"][name];
    std::shared_ptr<Optimizer> opt = make_optimizer(c.adam);
    Driven d = c.make(opt);
    expect_row(d, *opt, rows[0], 0);
    for (size_t t = 0; t < metrics.size(); ++t) {
      d.step(metrics[t]);
      expect_row(d, *opt, rows[t + 1], static_cast<int>(t + 1));
    }
  }
}

// Half way, a new optimizer and scheduler load the saved states and continue the sequence.
TEST(LRScheduler, StateDictRoundTripContinuesTheSequence) {
  const auto metrics = fixture()["metrics"].get<std::vector<double>>();
  const size_t half = metrics.size() / 2;
  for (const auto& [name, c] : cases()) {
    SCOPED_TRACE(name);
    const nlohmann::json& rows = fixture()["cases"][name];
    std::shared_ptr<Optimizer> opt = make_optimizer(c.adam);
    Driven d = c.make(opt);
    for (size_t t = 0; t < half; ++t) d.step(metrics[t]);
    std::shared_ptr<Optimizer> resumed_opt = make_optimizer(c.adam);
    Driven resumed = c.make(resumed_opt);
    resumed_opt->load_state_dict(opt->state_dict());
    resumed.load(d.save());
    for (size_t t = half; t < metrics.size(); ++t) {
      resumed.step(metrics[t]);
      expect_row(resumed, *resumed_opt, rows[t + 1], static_cast<int>(t + 1));
    }
  }
}

// step(epoch) with fractional epochs, period starts and jumps back, against PyTorch's rates,
// last_epoch, T_cur and T_i after each.
TEST(LRScheduler, CosineAnnealingWarmRestartsStepsToEpochs) {
  const nlohmann::json& expected = fixture()["cosine_annealing_warm_restarts_epochs"];
  const auto epochs = expected["epochs"].get<std::vector<double>>();
  auto opt = make_optimizer(false);
  CosineAnnealingWarmRestarts scheduler(opt, 7, 2, 0.001);
  for (size_t i = 0; i < epochs.size(); ++i) {
    SCOPED_TRACE(epochs[i]);
    scheduler.step(epochs[i]);
    const auto row = expected["rows"][i].get<std::vector<double>>();
    const std::vector<double> got = {scheduler.get_last_lr()[0], scheduler.get_last_lr()[1],
                                     static_cast<double>(scheduler.last_epoch()), scheduler.T_cur(),
                                     static_cast<double>(scheduler.T_i())};
    for (size_t k = 0; k < row.size(); ++k) {
      EXPECT_LE(std::abs(got[k] - row[k]), 1e-10 * std::abs(row[k]) + 1e-300)
          << "value " << k << ": " << got[k] << " vs PyTorch " << row[k];
    }
  }
  // Stepping on after an explicit epoch continues from it.
  scheduler.step(10.5);
  scheduler.step();
  EXPECT_EQ(scheduler.last_epoch(), 11);
  EXPECT_DOUBLE_EQ(scheduler.T_cur(), 4.5);
}

TEST(LRScheduler, CosineAnnealingWarmRestartsStateErrors) {
  auto opt = make_optimizer(false);
  CosineAnnealingWarmRestarts scheduler(opt, 3, 2);
  for (int i = 0; i < 5; ++i) scheduler.step();
  const LRSchedulerState saved = scheduler.state_dict();
  EXPECT_EQ(saved.values.at("T_cur"), 2.0);
  EXPECT_EQ(saved.values.at("T_i"), 6.0);
  const auto expect_error = [&](LRSchedulerState state, const std::string& message) {
    try {
      scheduler.load_state_dict(state);
      ADD_FAILURE() << "expected: " << message;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_EQ(scheduler.T_cur(), 2.0);
    EXPECT_EQ(scheduler.T_i(), 6);
  };
  LRSchedulerState missing = saved;
  missing.values.erase("T_i");
  expect_error(missing, "CosineAnnealingWarmRestarts: the state has no 'T_i'");
  LRSchedulerState fractional_period = saved;
  fractional_period.values["T_i"] = 2.5;
  expect_error(fractional_period, "the state's 'T_i' must be a whole number");
  LRSchedulerState infinite = saved;
  infinite.values["T_cur"] = INFINITY;
  expect_error(infinite, "the state's 'T_cur' must be finite, got inf");
}

// A state whose last child is bad is rejected whole: neither the SequentialLR's own counters
// nor its first child's change.
TEST(LRScheduler, SequentialLRLoadsAllOrNothing) {
  auto opt = make_optimizer(false);
  auto first = std::make_shared<StepLR>(opt, 2, 0.5);
  auto second = std::make_shared<StepLR>(opt, 3, 0.1);
  SequentialLR sequential(opt, {first, second}, {4});
  for (int i = 0; i < 6; ++i) sequential.step();
  LRSchedulerState bad = sequential.state_dict();
  bad.last_epoch = 1;
  bad.schedulers[0].last_epoch = 1;
  bad.schedulers[1].last_epoch = -5;
  const LRSchedulerState before = sequential.state_dict();
  try {
    sequential.load_state_dict(bad);
    ADD_FAILURE() << "expected an error for the second scheduler's last_epoch";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("scheduler 1 of the state"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(sequential.last_epoch(), before.last_epoch);
  EXPECT_EQ(first->last_epoch(), before.schedulers[0].last_epoch);
  EXPECT_EQ(second->last_epoch(), before.schedulers[1].last_epoch);
  EXPECT_EQ(sequential.get_last_lr(), before.last_lr);
}

// As in LibTorch, a scheduler also takes the optimizer itself (kept alive by the caller).
TEST(LRScheduler, TakesAnOptimizerByReferenceAsLibTorch) {
  Tensor w = zeros({2}).requires_grad_();
  SGD sgd({w}, SGDOptions(0.1));
  StepLR scheduler(sgd, 2, 0.5);
  std::vector<double> rates;
  for (int epoch = 0; epoch < 4; ++epoch) {
    sgd.step();
    scheduler.step();
    rates.push_back(scheduler.get_last_lr()[0]);
  }
  EXPECT_EQ(rates, (std::vector<double>{0.1, 0.05, 0.05, 0.025}));
  EXPECT_DOUBLE_EQ(sgd.param_groups()[0].options().get_lr(), 0.025);
  auto shared = make_optimizer(false);
  SequentialLR sequence(
      *shared, {std::make_shared<StepLR>(shared, 3), std::make_shared<StepLR>(*shared, 2)}, {4});
  EXPECT_EQ(sequence.get_last_lr().size(), shared->param_groups().size());
  EXPECT_THROW(StepLR(nullptr, 2), Error);
}

TEST(LRScheduler, InconsistentArgumentsAreErrors) {
  auto opt = make_optimizer(false);
  EXPECT_THROW(StepLR(opt, 0), Error);
  EXPECT_THROW(CosineAnnealingLR(opt, 0), Error);
  EXPECT_THROW(LinearLR(opt, 0.0), Error);
  EXPECT_THROW(LinearLR(opt, 0.5, 1.5), Error);
  EXPECT_THROW(ReduceLROnPlateau(opt, Plateau().factor(1.0)), Error);
  EXPECT_THROW(OneCycleLR(opt, 0.1, 10, OneCycle().pct_start(1.5)), Error);
  EXPECT_THROW(SequentialLR(opt, {std::make_shared<StepLR>(opt, 3)}, {5}), Error);
  EXPECT_THROW(LambdaLR(opt, std::vector<LambdaLR::Lambda>{[](int64_t) { return 1.0; }}), Error);
  const auto expect_error = [](const std::function<void()>& make, const std::string& message) {
    try {
      make();
      ADD_FAILURE() << "expected: " << message;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  expect_error([&] { ConstantLR(opt, 1.5); }, "ConstantLR: factor must be in [0, 1], got 1.5");
  expect_error([&] { ConstantLR(opt, -0.1); }, "ConstantLR: factor must be in [0, 1], got -0.1");
  expect_error(
      [&] {
        MultiplicativeLR(opt, std::vector<MultiplicativeLR::Lambda>{[](int64_t) { return 1.0; }});
      },
      "MultiplicativeLR: got 1 lr_lambdas for 2 parameter groups");
  expect_error([&] { CosineAnnealingWarmRestarts(opt, 0); },
               "CosineAnnealingWarmRestarts: T_0 must be a positive integer, got 0");
  expect_error([&] { CosineAnnealingWarmRestarts(opt, 5, 0); },
               "CosineAnnealingWarmRestarts: T_mult must be an integer >= 1, got 0");
  expect_error([&] { CosineAnnealingWarmRestarts(opt, 5).step(-1.0); },
               "CosineAnnealingWarmRestarts: epoch must be in [0, 9007199254740992], got -1");
  expect_error([&] { CyclicLR(opt, 0.01, 0.1, Cyclic().step_size_up(0)); },
               "CyclicLR: step_size_up must be positive, got 0");
  expect_error([&] { CyclicLR(opt, 0.01, 0.1, Cyclic().step_size_down(-2)); },
               "CyclicLR: step_size_down must be non-negative, got -2");
  expect_error(
      [&] {
        CyclicLR(opt, std::vector<double>{0.01}, std::vector<double>{0.1, 0.2});
      },
      "CyclicLR: expected 2 values for base_lr and max_lr (one per parameter group), got "
      "1 and 2");
  Tensor w = zeros({2}).requires_grad_();
  auto adagrad = std::make_shared<Adagrad>(std::vector<Tensor>{w}, AdagradOptions(0.1));
  expect_error([&] { CyclicLR(adagrad, 0.01, 0.1); },
               "CyclicLR: cycle_momentum needs an optimizer with a momentum or betas; Adagrad has "
               "neither (pass cycle_momentum(false))");
  EXPECT_NO_THROW(CyclicLR(adagrad, 0.01, 0.1, Cyclic().cycle_momentum(false)));
  expect_error([&] { ChainedScheduler({}); }, "ChainedScheduler: expected at least one scheduler");
  auto other = make_optimizer(false);
  expect_error(
      [&] {
        ChainedScheduler({std::make_shared<StepLR>(opt, 3), std::make_shared<StepLR>(other, 3)});
      },
      "ChainedScheduler: scheduler 1 does not drive the ChainedScheduler's optimizer");
  expect_error([&] { ChainedScheduler({std::make_shared<StepLR>(opt, 3)}, other); },
               "ChainedScheduler: scheduler 0 does not drive the ChainedScheduler's optimizer");
  // As PyTorch's division by zero: a zero factor cannot restore the base rates.
  ConstantLR zero_factor(opt, 0.0, 2);
  zero_factor.step();
  EXPECT_EQ(zero_factor.get_last_lr()[0], 0.0);
  expect_error([&] { zero_factor.step(); },
               "ConstantLR: factor 0 cannot restore the base rates at total_iters 2");
  auto adagrad_like = make_optimizer(false);
  OneCycleLR short_cycle(adagrad_like, 0.1, 2);
  short_cycle.step();
  short_cycle.step();
  try {
    short_cycle.step();
    ADD_FAILURE() << "expected an error past total_steps";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("OneCycleLR: stepped 4 times but total_steps is 2"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace accel::optim
