// pytorch-accelerated's schedulers (CosineLrScheduler, WSDLrScheduler) against
// tests/reference/fixtures/trainer_schedulers.json (generate_trainer_scheduler_fixtures.py): the
// rates of a two-group optimizer over 130 steps, after a state round trip through JSON at any
// step, and the two fixed defects of the original (warmup), each checked where the original
// differs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "accel/core/factories.h"
#include "accel/optim/schedulers/cosine_lr_scheduler.h"
#include "accel/optim/schedulers/lr_scheduler_state_json.h"
#include "accel/optim/schedulers/wsd_lr_scheduler.h"
#include "accel/optim/sgd.h"
#include "support/expect_error.h"

namespace accel::optim {
namespace {

using Cosine = CosineLrSchedulerOptions;
using WSD = WSDLrSchedulerOptions;
using testing::expect_error_containing;
using Make = std::function<std::shared_ptr<LRScheduler>(std::shared_ptr<Optimizer>)>;

template <typename S, typename... Args>
Make make(Args... args) {
  return [=](std::shared_ptr<Optimizer> o) { return std::make_shared<S>(o, args...); };
}

// The generator's cases, by name.
const std::map<std::string, Make>& cases() {
  static const std::map<std::string, Make> table = {
      {"cosine_default", make<CosineLrScheduler>(12, 10, Cosine())},
      {"cosine_warmup_cooldown",
       make<CosineLrScheduler>(12, 10,
                               Cosine().lr_min(1e-4).num_warmup_epochs(2).num_cooldown_epochs(1))},
      {"cosine_ratios_k_decay",
       make<CosineLrScheduler>(
           8, 15,
           Cosine().k_decay(2.0).min_lr_ratio(0.05).num_warmup_epochs(2).warmup_starting_lr_ratio(
               0.1))},
      {"cosine_warmup_start_k_decay",
       make<CosineLrScheduler>(
           24, 5, Cosine().k_decay(0.5).num_warmup_epochs(3).warmup_starting_lr(0.01))},
      {"wsd_sqrt",
       make<WSDLrScheduler>(int64_t{120},
                            WSD().num_warmup_steps(10).decay_phase_ratio(0.2).lr_min(0.01))},
      {"wsd_inverse_proportional_three_checkpoints",
       make<WSDLrScheduler>(int64_t{120}, WSD()
                                              .num_warmup_steps(5)
                                              .decay_phase_ratio(0.25)
                                              .lr_min(0.05)
                                              .decay(WSD::Decay::InverseProportional)
                                              .num_checkpoints(3))},
      {"wsd_default_warmup_two_checkpoints",
       make<WSDLrScheduler>(int64_t{120}, WSD()
                                              .num_warmup_steps(std::nullopt)
                                              .decay_phase_ratio(0.3)
                                              .lr_min(0.02)
                                              .num_checkpoints(2)
                                              .warmup_starting_lr(0.001))},
      {"wsd_continuation",
       make<WSDLrScheduler>(
           int64_t{80},
           WSD().num_warmup_steps(10).decay_phase_ratio(0.1).is_continuation_from_checkpoint(
               true))},
  };
  return table;
}

const nlohmann::json& fixture() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(ACCEL_FIXTURE_DIR) + "/trainer_schedulers.json");
    EXPECT_TRUE(in.good()) << "missing trainer_schedulers.json";
    return nlohmann::json::parse(in);
  }();
  return data;
}

std::vector<double> row(const std::string& name, size_t step) {
  return fixture()["cases"][name][step].get<std::vector<double>>();
}

// An optimizer with two groups at rates 0.1 and 0.05, as the generator builds.
std::shared_ptr<Optimizer> make_optimizer() {
  return std::make_shared<SGD>(
      std::vector<OptimizerParamGroup>{
          OptimizerParamGroup({zeros({2}).requires_grad_()}),
          OptimizerParamGroup({zeros({1}).requires_grad_()}, SGDOptions(0.05))},
      SGDOptions(0.1));
}

void expect_rates(const LRScheduler& s, const Optimizer& opt, const std::vector<double>& expected,
                  size_t step) {
  const std::vector<double>& got = s.get_last_lr();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t g = 0; g < got.size(); ++g) {
    EXPECT_LE(std::abs(got[g] - expected[g]), 1e-12 * std::abs(expected[g]))
        << "after step " << step << ", group " << g << ": " << got[g] << " vs " << expected[g];
    EXPECT_EQ(opt.param_groups()[g].options().get_lr(), got[g]);
  }
}

TEST(TrainerScheduler, TableCoversFixture) {
  for (const auto& [name, _] : fixture()["cases"].items()) {
    EXPECT_TRUE(cases().count(name)) << name << " is in the fixture but not the table";
  }
  for (const auto& [name, _] : cases()) {
    EXPECT_TRUE(fixture()["cases"].contains(name)) << name << " is not in the fixture";
  }
}

TEST(TrainerScheduler, SequencesMatchReference) {
  const auto steps = fixture()["steps"].get<size_t>();
  for (const auto& [name, make_scheduler] : cases()) {
    SCOPED_TRACE(name);
    auto opt = make_optimizer();
    auto s = make_scheduler(opt);
    for (size_t t = 0; t <= steps; ++t) {
      if (t > 0) s->step();
      expect_rates(*s, *opt, row(name, t), t);
    }
  }
}

// At several points (mid-warmup, stable, mid-decay, past the end) a new optimizer and scheduler
// load the states saved through JSON, as a checkpoint file holds them, and continue the sequence.
// A continuation scheduler starts afresh on load by design, so it is tested separately.
TEST(TrainerScheduler, ResumedThroughJsonContinuesTheSequence) {
  const auto steps = fixture()["steps"].get<size_t>();
  for (const auto& [name, make_scheduler] : cases()) {
    if (name == "wsd_continuation") continue;
    for (size_t saved_at : {size_t{0}, size_t{4}, size_t{33}, size_t{108}, size_t{125}}) {
      SCOPED_TRACE(name + " resumed after step " + std::to_string(saved_at));
      auto opt = make_optimizer();
      auto s = make_scheduler(opt);
      for (size_t t = 0; t < saved_at; ++t) s->step();
      auto resumed_opt = make_optimizer();
      auto resumed = make_scheduler(resumed_opt);
      resumed_opt->load_state_dict(opt->state_dict());
      resumed->load_state_dict(
          lr_scheduler_state_from_json(lr_scheduler_state_to_json(s->state_dict())));
      expect_rates(*resumed, *resumed_opt, row(name, saved_at), saved_at);
      for (size_t t = saved_at + 1; t <= steps; ++t) {
        resumed->step();
        expect_rates(*resumed, *resumed_opt, row(name, t), t);
      }
    }
  }
}

// Defect 4: the original's WSD state held no step count, so a run resumed after its warmup
// warmed up again. accel's state holds the count; the resumed rates stay at the base rates.
TEST(TrainerScheduler, WsdResumeKeepsTheStepCount) {
  const WSD options = WSD().num_warmup_steps(10).decay_phase_ratio(0.2).lr_min(0.01);
  auto opt = make_optimizer();
  WSDLrScheduler s(opt, 120, options);
  for (int t = 0; t < 30; ++t) s.step();
  const LRSchedulerState state = s.state_dict();
  EXPECT_EQ(state.last_epoch, 30);
  EXPECT_EQ(s.num_updates(), 29);

  auto resumed_opt = make_optimizer();
  WSDLrScheduler resumed(resumed_opt, 120, options);
  resumed.load_state_dict(state);
  resumed.step();
  EXPECT_EQ(resumed.num_updates(), 30);
  EXPECT_EQ(resumed.get_last_lr(), (std::vector<double>{0.1, 0.05}));  // not the warmup's 1e-6
}

// A continuation run loads a finished run's state yet starts a fresh stable phase over its own
// total_steps, without warmup. (The original overwrote the continuation flag with the saved
// one when loading, and so warmed up again.)
TEST(TrainerScheduler, WsdContinuationStartsAFreshStablePhase) {
  auto first_opt = make_optimizer();
  WSDLrScheduler first(first_opt, 120, WSD().num_warmup_steps(10));
  for (int t = 0; t < 120; ++t) first.step();

  auto opt = make_optimizer();
  WSDLrScheduler s(
      opt, 80,
      WSD().num_warmup_steps(10).decay_phase_ratio(0.1).is_continuation_from_checkpoint(true));
  for (int t = 0; t < 5; ++t) s.step();
  s.load_state_dict(first.state_dict());
  EXPECT_EQ(s.num_updates(), -1);
  for (size_t t = 0; t <= 80; ++t) {
    if (t > 0) s.step();
    expect_rates(s, *opt, row("wsd_continuation", t), t);
  }
}

// Defect 5: with warmup the original ended the cosine W indices early, at a rate above the
// minimum, then held the minimum; and it ramped from the ratio start with the slope of
// warmup_starting_lr, overshooting the base rate. Here (T = 23, W = 2, one group at 0.1 and
// one at 0.05) the warmup starts at exactly 0.1 x base, the cosine spans indices 2..22 with its
// midpoint at 12, and reaches the minimum exactly at the last index, 22.
TEST(TrainerScheduler, CosineWarmupThenAFullCosine) {
  auto opt = make_optimizer();
  CosineLrScheduler s(opt, 23, 1,
                      Cosine().lr_min(0.001).num_warmup_epochs(2).warmup_starting_lr_ratio(0.1));
  EXPECT_EQ(s.get_last_lr(), (std::vector<double>{0.1 * 0.1, 0.1 * 0.05}));
  auto rates_at = [&](int64_t n) {
    s.step_update(n);
    return s.get_last_lr();
  };
  EXPECT_LT(rates_at(1)[0], 0.1);  // the original's 0.01 + (0.1 - 1e-6) / 2 overshoots
  EXPECT_NEAR(rates_at(2)[0], 0.1, 1e-15);
  EXPECT_NEAR(rates_at(12)[0], (0.1 + 0.001) / 2, 1e-15);
  EXPECT_NEAR(rates_at(12)[1], (0.05 + 0.001) / 2, 1e-15);
  EXPECT_GT(rates_at(21)[0], 0.001);  // the original is already at the minimum here
  EXPECT_EQ(rates_at(22), (std::vector<double>{0.001, 0.001}));
  EXPECT_EQ(rates_at(40), (std::vector<double>{0.001, 0.001}));
}

// step_update(n) sets the rates of step index n (the (n + 1)-th step) and moves the scheduler
// there; step() continues from it.
TEST(TrainerScheduler, StepUpdateSetsTheIndexDirectly) {
  for (const auto& [name, make_scheduler] : cases()) {
    SCOPED_TRACE(name);
    auto opt = make_optimizer();
    auto s = std::dynamic_pointer_cast<SchedulerBase>(make_scheduler(opt));
    ASSERT_TRUE(s);
    s->step_update(70);
    expect_rates(*s, *opt, row(name, 71), 71);
    s->step();
    expect_rates(*s, *opt, row(name, 72), 72);
    s->step_update(3);
    expect_rates(*s, *opt, row(name, 4), 4);
  }
}

TEST(TrainerScheduler, WsdCheckpointsAreGeometric) {
  auto opt = make_optimizer();
  WSDLrScheduler three(opt, 120, WSD().num_checkpoints(3).decay_phase_ratio(0.25));
  EXPECT_EQ(three.checkpoint_steps(), (std::vector<int64_t>{30, 60, 120}));
  const WSDLrScheduler::Period& period = three.phase_info(45);
  EXPECT_EQ(period.period_start, 30);
  EXPECT_EQ(period.period_end, 60);
  EXPECT_EQ(period.decay_steps, 7);
  EXPECT_EQ(period.pre_decay_step, 53);
  EXPECT_EQ(three.phase_info(500).period_end, 120);
  EXPECT_EQ(WSDLrScheduler(opt, 100, WSD().num_checkpoints(2)).checkpoint_steps(),
            (std::vector<int64_t>{25, 50}));
  EXPECT_EQ(WSDLrScheduler(opt, 100, WSD().num_checkpoints(9)).checkpoint_steps(),
            (std::vector<int64_t>{25, 50, 100}));
}

TEST(TrainerScheduler, InvalidArgumentsAreErrors) {
  auto opt = make_optimizer();
  auto cosine = [&](int64_t epochs, int64_t steps, Cosine o = Cosine()) {
    return [=] { CosineLrScheduler(opt, epochs, steps, o); };
  };
  expect_error_containing(cosine(0, 10), "CosineLrScheduler: expected total_num_epochs > 0");
  expect_error_containing(cosine(5, 0),
                          "CosineLrScheduler: expected num_update_steps_per_epoch > 0, found 0");
  expect_error_containing(cosine(5, 10, Cosine().num_warmup_epochs(3).num_cooldown_epochs(2)),
                          "expected num_warmup_epochs + num_cooldown_epochs < total_num_epochs");
  expect_error_containing(cosine(5, 10, Cosine().num_warmup_epochs(-1)), "found -1 and 0");
  expect_error_containing(cosine(5, 10, Cosine().k_decay(0)), "expected k_decay > 0, found 0");
  expect_error_containing(cosine(5, 10, Cosine().lr_min(-1e-3)), "expected lr_min >= 0");
  expect_error_containing(cosine(5, 10, Cosine().min_lr_ratio(-0.5)), "found 1e-06 and -0.5");
  expect_error_containing(cosine(5, 10, Cosine().warmup_starting_lr_ratio(-0.1)),
                          "expected warmup_starting_lr >= 0 and warmup_starting_lr_ratio >= 0");

  auto wsd = [&](int64_t total, WSD o = WSD()) { return [=] { WSDLrScheduler(opt, total, o); }; };
  expect_error_containing(wsd(0), "WSDLrScheduler: expected total_steps > 0, found 0");
  expect_error_containing(wsd(100, WSD().num_warmup_steps(-5)), "num_warmup_steps >= 0, found -5");
  expect_error_containing(wsd(100, WSD().decay_phase_ratio(1.5)),
                          "expected decay_phase_ratio in [0, 1], found 1.5");
  expect_error_containing(wsd(100, WSD().num_checkpoints(0)), "num_checkpoints > 0, found 0");
  expect_error_containing(wsd(100, WSD().num_checkpoints(3).decay_phase_ratio(0.5)),
                          "expected decay_phase_ratio <= 1/3 with 3 geometrically spaced");
  expect_error_containing(wsd(3, WSD().num_checkpoints(2)), "expected total_steps >= 4");
  expect_error_containing(wsd(100, WSD().lr_min(0).decay(WSD::Decay::InverseProportional)),
                          "expected lr_min > 0 (inverse-proportional decay)");
  expect_error_containing(wsd(100, WSD().lr_min(-0.1)), "found -0.1");
  expect_error_containing(wsd(100, WSD().warmup_starting_lr(0.2)),
                          "expected warmup_starting_lr <= the largest base rate 0.1, found 0.2");

  CosineLrScheduler s(opt, 5, 10);
  expect_error_containing([&] { s.step_update(-1); },
                          "CosineLrScheduler: step_update: expected num_updates >= 0, found -1");
}

}  // namespace
}  // namespace accel::optim
