// Optimizer behaviour beyond the update formulas: argument errors, param groups, zero_grad,
// the mixed-precision step (found_inf skip, inv_scale unscaling), state tensors and
// load_state_dict checks.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "accel/optim/adagrad.h"
#include "accel/optim/adam.h"
#include "accel/optim/rmsprop.h"
#include "accel/optim/sgd.h"

namespace accel::optim {
namespace {

Tensor param(std::initializer_list<double> values) { return tensor(values).requires_grad_(); }

// Sets p's gradient to 2 * p * scale via autograd.
void backward_square(const Tensor& p, double scale = 1.0) { ((p * p).sum() * scale).backward(); }

template <typename F>
void expect_error(F f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected an accel::Error containing '" << fragment << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Optimizer, InvalidArgumentsNameTheOptimizerAndValue) {
  Tensor p = param({1.0, 2.0});
  expect_error([&] { SGD({p}, SGDOptions(-0.1)); }, "SGD: invalid learning rate: -0.1");
  expect_error([&] { SGD({p}, SGDOptions(0.1).nesterov(true)); }, "SGD: Nesterov momentum");
  expect_error([&] { Adam({p}, AdamOptions(0.1).betas({0.9, 1.0})); }, "Adam: invalid beta2: 1");
  expect_error(
      [&] {
        Adam({p}, AdamOptions(0.1).betas({-0.1, 0.9}));
      },
      "Adam: invalid beta1: -0.1");
  expect_error([&] { AdamW({p}, AdamWOptions(0.1).eps(-1e-8)); }, "AdamW: invalid epsilon");
  expect_error([&] { RMSprop({p}, RMSpropOptions(0.1).momentum(-1)); },
               "RMSprop: invalid momentum: -1");
  expect_error([&] { Adagrad({p}, AdagradOptions(0.1).lr_decay(-1)); },
               "Adagrad: invalid lr_decay: -1");
  expect_error([&] { SGD(std::vector<Tensor>{}, SGDOptions(0.1)); },
               "SGD: got an empty parameter list");
}

TEST(Optimizer, RejectsNonLeafAndDuplicateParameters) {
  Tensor p = param({1.0, 2.0});
  Tensor q = param({3.0});
  expect_error([&] { SGD({p * 2.0}, SGDOptions(0.1)); }, "is not a leaf tensor");
  expect_error(
      [&] {
        SGD({p, q, p}, SGDOptions(0.1));
      },
      "SGD: parameter 2 of group 0 (shape [2]) appears more than once");
  SGD opt({p}, SGDOptions(0.1));
  expect_error(
      [&] {
        opt.add_param_group({{q, p}});
      },
      "parameter 1 of group 1 (shape [2]) appears more than once");
  expect_error([&] { opt.add_param_group({{q}, SGDOptions(-1.0)}); }, "invalid learning rate");
  expect_error(
      [&] {
        opt.add_param_group({{q}, AdamOptions(0.1)});
      },
      "has options of another optimizer");
  EXPECT_EQ(opt.param_groups().size(), 1u);
}

TEST(Optimizer, AddedGroupsTakeTheirOwnOptionsOrTheDefaults) {
  Tensor p = param({1.0});
  Tensor q = param({1.0});
  Tensor r = param({1.0});
  SGD opt({p}, SGDOptions(0.1));
  opt.add_param_group({{q}, SGDOptions(0.5)});
  opt.add_param_group({{r}});
  ASSERT_EQ(opt.param_groups().size(), 3u);
  EXPECT_EQ(opt.param_groups()[1].options().get_lr(), 0.5);
  EXPECT_EQ(opt.param_groups()[2].options().get_lr(), 0.1);
  for (const Tensor& t : {p, q, r}) backward_square(t);
  opt.step();
  EXPECT_DOUBLE_EQ(p.item<double>(), 1.0 - 0.1 * 2.0);
  EXPECT_DOUBLE_EQ(q.item<double>(), 1.0 - 0.5 * 2.0);
  EXPECT_DOUBLE_EQ(r.item<double>(), 1.0 - 0.1 * 2.0);
  // A scheduler changes a group's rate through the options.
  opt.param_groups()[0].options().set_lr(0.01);
  opt.zero_grad();
  backward_square(p);
  opt.step();
  EXPECT_DOUBLE_EQ(p.item<double>(), 0.8 - 0.01 * 1.6);
}

TEST(Optimizer, ZeroGradSetsToNoneOrZeroes) {
  Tensor p = param({1.0, 2.0});
  SGD opt({p}, SGDOptions(0.1));
  backward_square(p);
  opt.zero_grad(false);
  ASSERT_TRUE(p.grad().defined());
  EXPECT_TRUE(p.grad().equal(zeros({2}, kFloat64)));
  opt.zero_grad();
  EXPECT_FALSE(p.grad().defined());
  // Parameters without a gradient are left alone by step().
  opt.step();
  EXPECT_TRUE(p.equal(tensor({1.0, 2.0})));
}

TEST(Optimizer, StateHoldsTensorsIncludingTheStepCount) {
  Tensor p = param({1.0, -2.0});
  Adam opt({p}, AdamOptions(0.1).amsgrad(true));
  EXPECT_TRUE(opt.state(p).empty());
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    backward_square(p);
    opt.step();
  }
  const ParamState& state = opt.state(p);
  ASSERT_EQ(state.size(), 4u);
  EXPECT_EQ(state.at("step").item<double>(), 3.0);
  for (const char* key : {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"}) {
    EXPECT_EQ(state.at(key).sizes(), p.sizes()) << key;
  }
  EXPECT_EQ(opt.state_dict().state.at(0).at("step").item<double>(), 3.0);
}

TEST(Optimizer, FoundInfSkipsTheStepEntirely) {
  Tensor p = param({1.0, -2.0});
  Adam opt({p}, AdamOptions(0.1));
  backward_square(p);
  opt.step(scalar_tensor(1.0, kFloat32), scalar_tensor(0.5, kFloat32));
  EXPECT_TRUE(p.equal(tensor({1.0, -2.0})));
  EXPECT_TRUE(opt.state(p).empty());
  opt.step(scalar_tensor(0.0, kFloat32), scalar_tensor(1.0, kFloat32));
  EXPECT_FALSE(p.equal(tensor({1.0, -2.0})));
  EXPECT_EQ(opt.state(p).at("step").item<double>(), 1.0);
}

// A step on gradients of a loss scaled by 8 with inv_scale 1/8 equals a plain step.
TEST(Optimizer, InvScaleUnscalesGradientsInsideTheUpdate) {
  auto make = [](const std::vector<Tensor>& params) -> std::unique_ptr<Optimizer> {
    return std::make_unique<SGD>(params, SGDOptions(0.1).momentum(0.9).weight_decay(0.01));
  };
  Tensor plain = param({1.0, -2.0, 0.5});
  Tensor scaled = param({1.0, -2.0, 0.5});
  auto plain_opt = make({plain});
  auto scaled_opt = make({scaled});
  for (int i = 0; i < 3; ++i) {
    plain_opt->zero_grad();
    backward_square(plain);
    plain_opt->step();
    scaled_opt->zero_grad();
    backward_square(scaled, 8.0);
    scaled_opt->step(scalar_tensor(0.0, kFloat32), scalar_tensor(0.125, kFloat32));
  }
  EXPECT_TRUE(plain.allclose(scaled, 1e-15, 0.0));
}

TEST(Optimizer, StepUpdatesFloat32Parameters) {
  Tensor p = tensor({1.0f, -2.0f}).requires_grad_();
  AdamW opt({p}, AdamWOptions(0.1));
  backward_square(p);
  opt.step();
  // First Adam step moves each element by about lr against its gradient's sign.
  EXPECT_NEAR(p[0].item<float>(), 1.0f * (1 - 0.1f * 0.01f) - 0.1f, 1e-6);
  EXPECT_NEAR(p[1].item<float>(), -2.0f * (1 - 0.1f * 0.01f) + 0.1f, 1e-6);
  EXPECT_EQ(opt.state(p).at("exp_avg").dtype(), kFloat32);
}

TEST(Optimizer, LoadStateDictChecksTheLayout) {
  Tensor p = param({1.0, 2.0});
  Tensor q = param({3.0});
  SGD source({p, q}, SGDOptions(0.1).momentum(0.9));
  backward_square(p);
  backward_square(q);
  source.step();
  OptimizerStateDict dict = source.state_dict();

  SGD one_param({param({1.0, 2.0})}, SGDOptions(0.1));
  expect_error([&] { one_param.load_state_dict(dict); },
               "SGD: group 0 of the state dict has 2 parameters but the optimizer's has 1");
  SGD two_groups({param({1.0, 2.0})}, SGDOptions(0.1));
  two_groups.add_param_group({{param({3.0})}});
  expect_error([&] { two_groups.load_state_dict(dict); },
               "the state dict has 1 parameter groups but the optimizer has 2");
  SGD swapped({param({3.0}), param({1.0, 2.0})}, SGDOptions(0.1));
  expect_error([&] { swapped.load_state_dict(dict); },
               "state \"momentum_buffer\" of parameter 0 has shape [2] but the parameter has "
               "shape [1]");
  Adam other({param({1.0, 2.0}), param({3.0})});
  expect_error([&] { other.load_state_dict(dict); }, "holds options of another optimizer");
}

// The state dict is a snapshot: stepping afterwards does not change it.
TEST(Optimizer, StateDictIsASnapshot) {
  Tensor p = param({1.0, 2.0});
  SGD opt({p}, SGDOptions(0.1).momentum(0.9));
  backward_square(p);
  opt.step();
  OptimizerStateDict dict = opt.state_dict();
  const Tensor saved = dict.state.at(0).at("momentum_buffer").clone();
  opt.step();
  EXPECT_TRUE(dict.state.at(0).at("momentum_buffer").equal(saved));
  opt.param_groups()[0].options().set_lr(5.0);
  EXPECT_EQ(dict.param_groups[0].options->get_lr(), 0.1);
}

}  // namespace
}  // namespace accel::optim
