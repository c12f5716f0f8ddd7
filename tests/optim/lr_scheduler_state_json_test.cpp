// LRSchedulerState as JSON: exact round trips (non-finite numbers and SequentialLR's children
// included), a SequentialLR resumed from its JSON continuing the same rates, and clear errors
// naming the offending key for malformed input.
#include "accel/optim/schedulers/lr_scheduler_state_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "accel/core/factories.h"
#include "accel/optim/schedulers/cosine_lr_scheduler.h"
#include "accel/optim/schedulers/linear_lr.h"
#include "accel/optim/schedulers/reduce_lr_on_plateau.h"
#include "accel/optim/schedulers/sequential_lr.h"
#include "accel/optim/schedulers/wsd_lr_scheduler.h"
#include "accel/optim/sgd.h"
#include "support/expect_error.h"

namespace accel::optim {
namespace {

using testing::expect_error_containing;

// Bitwise equality, so NaN equals NaN and 0.1 must come back as exactly 0.1.
void expect_same(const LRSchedulerState& a, const LRSchedulerState& b) {
  auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_TRUE(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))) << x[i] << " " << y[i];
    }
  };
  EXPECT_EQ(a.last_epoch, b.last_epoch);
  same(a.base_lrs, b.base_lrs);
  same(a.last_lr, b.last_lr);
  ASSERT_EQ(a.values.size(), b.values.size());
  for (const auto& [key, value] : a.values) {
    ASSERT_TRUE(b.values.count(key)) << key;
    same({value}, {b.values.at(key)});
  }
  ASSERT_EQ(a.schedulers.size(), b.schedulers.size());
  for (size_t i = 0; i < a.schedulers.size(); ++i) expect_same(a.schedulers[i], b.schedulers[i]);
}

LRSchedulerState round_trip(const LRSchedulerState& state) {
  return lr_scheduler_state_from_json(lr_scheduler_state_to_json(state));
}

std::shared_ptr<Optimizer> make_optimizer() {
  return std::make_shared<SGD>(std::vector<Tensor>{zeros({2}).requires_grad_()}, SGDOptions(0.1));
}

TEST(LRSchedulerStateJson, RoundTripIsExact) {
  const double inf = std::numeric_limits<double>::infinity();
  LRSchedulerState child{3, {0.3}, {1e-300}, {{"k", -2.5}}, {}};
  LRSchedulerState state{-1,
                         {0.1, 1.0 / 3, 5e-324},
                         {std::nextafter(0.1, 1.0), 0.0, -0.0},
                         {{"best", inf}, {"worst", -inf}, {"unknown", std::nan("")}},
                         {child, LRSchedulerState{}}};
  expect_same(round_trip(state), state);
  expect_same(round_trip(LRSchedulerState{}), LRSchedulerState{});
}

TEST(LRSchedulerStateJson, ReduceLROnPlateauInitialStateRoundTrips) {
  ReduceLROnPlateau plateau(make_optimizer());
  const LRSchedulerState state = plateau.state_dict();
  ASSERT_TRUE(std::isinf(state.values.at("best")));
  expect_same(round_trip(state), state);
}

// A SequentialLR over a warmup, a cosine and a WSD schedule, saved as JSON mid-way through the
// cosine and loaded into a new one, continues with the same rates.
TEST(LRSchedulerStateJson, SequentialLRResumesFromJson) {
  auto make = [](std::shared_ptr<Optimizer> o) {
    std::vector<std::shared_ptr<LRScheduler>> parts = {
        std::make_shared<LinearLR>(o, 0.1, 1.0, 5),
        std::make_shared<CosineLrScheduler>(o, 4, 5, CosineLrSchedulerOptions().lr_min(0.01)),
        std::make_shared<WSDLrScheduler>(o, 20)};
    return std::make_shared<SequentialLR>(o, parts, std::vector<int64_t>{5, 25});
  };
  auto opt = make_optimizer();
  auto s = make(opt);
  for (int t = 0; t < 12; ++t) s->step();
  const std::string saved = lr_scheduler_state_to_json(s->state_dict());
  ASSERT_EQ(s->state_dict().schedulers.size(), 3u);

  auto resumed_opt = make_optimizer();
  auto resumed = make(resumed_opt);
  resumed_opt->load_state_dict(opt->state_dict());
  resumed->load_state_dict(lr_scheduler_state_from_json(saved));
  expect_same(resumed->state_dict(), s->state_dict());
  for (int t = 12; t < 50; ++t) {
    s->step();
    resumed->step();
    EXPECT_EQ(resumed->get_last_lr(), s->get_last_lr()) << "step " << t + 1;
  }
}

TEST(LRSchedulerStateJson, MalformedInputIsAnError) {
  const std::string op = "lr_scheduler_state_from_json: ";
  auto parse = [](std::string text) { return [=] { lr_scheduler_state_from_json(text); }; };
  const std::string good_child =
      R"({"last_epoch":1,"base_lrs":[0.1],"last_lr":[0.1],"values":{},"schedulers":[]})";
  expect_error_containing(parse(""), op + "the scheduler state is not valid JSON");
  expect_error_containing(parse(R"({"last_epoch": 1,)"),
                          op + "the scheduler state is not valid JSON");
  expect_error_containing(parse("[1, 2]"),
                          op + "the scheduler state: expected an object, found [1,2]");
  expect_error_containing(parse(R"({"base_lrs":[],"last_lr":[],"values":{},"schedulers":[]})"),
                          op + "the scheduler state: field 'last_epoch': missing");
  expect_error_containing(
      parse(R"({"last_epoch":1.5,"base_lrs":[],"last_lr":[],"values":{},"schedulers":[]})"),
      op + "the scheduler state: field 'last_epoch': expected an integer, found 1.5");
  expect_error_containing(
      parse(R"({"last_epoch":1,"base_lrs":0.1,"last_lr":[],"values":{},"schedulers":[]})"),
      op + "the scheduler state: field 'base_lrs': expected an array, found 0.1");
  expect_error_containing(
      parse(R"({"last_epoch":1,"base_lrs":[0.1,"fast"],"last_lr":[],"values":{},"schedulers":[]})"),
      "field 'base_lrs[1]': expected a number");
  expect_error_containing(
      parse(
          R"({"last_epoch":1,"base_lrs":[],"last_lr":[],"values":{"best":null},"schedulers":[]})"),
      "field 'values.best': expected a number");
  expect_error_containing(
      parse(R"({"last_epoch":1,"base_lrs":[],"last_lr":[],"values":{},"schedulers":[)" +
            good_child + R"(,{"last_epoch":1,"base_lrs":[],"values":{},"schedulers":[]}]})"),
      op + "the scheduler state: field 'schedulers[1].last_lr': missing");
}

// Deep nesting used to overflow the stack; huge numbers to overflow a step count.
TEST(LRSchedulerStateJson, HostileInputIsAnErrorNotACrash) {
  std::string deep = "{\"last_epoch\":1,\"base_lrs\":[],\"last_lr\":[],\"values\":{}";
  std::string nested;
  for (int i = 0; i < 60'000; ++i) nested += deep + ",\"schedulers\":[";
  nested += deep + ",\"schedulers\":[]}";
  for (int i = 0; i < 60'000; ++i) nested += "]}";
  expect_error_containing([&] { lr_scheduler_state_from_json(nested, "\"deep.json\""); },
                          "\"deep.json\": the JSON is nested more than 128 deep");
  expect_error_containing(
      [] {
        lr_scheduler_state_from_json(
            R"({"last_epoch":1,"base_lrs":[1e400],"last_lr":[],"values":{},"schedulers":[]})");
      },
      "number overflow");

  const auto optimizer = make_optimizer();
  auto cosine = std::make_shared<CosineLrScheduler>(optimizer, 4, 5);
  LRSchedulerState state = cosine->state_dict();
  state.last_epoch = std::numeric_limits<int64_t>::max();
  expect_error_containing([&] { cosine->load_state_dict(state); }, "'last_epoch' must be in");

  ReduceLROnPlateau plateau(optimizer);
  for (double bad : {std::nan(""), -1.0, 0.5, 1e300}) {
    LRSchedulerState saved = plateau.state_dict();
    saved.values["num_bad_epochs"] = bad;
    expect_error_containing([&] { plateau.load_state_dict(saved); }, "'num_bad_epochs'");
  }
  LRSchedulerState saved = plateau.state_dict();
  saved.last_lr = {0.1, 0.2};
  expect_error_containing([&] { plateau.load_state_dict(saved); }, "2 last rates");
}

}  // namespace
}  // namespace accel::optim
