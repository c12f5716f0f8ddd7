// Optimizer behaviour beyond the update formulas: argument errors, param groups, zero_grad,
// the mixed-precision step (found_inf skip, inv_scale unscaling), state tensors and
// load_state_dict checks, step(closure); the defaults, errors and state names of the optimizers
// written as tensor ops (Adamax, NAdam, RAdam, Adadelta, Rprop, ASGD).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

using MakeOptimizer = std::function<std::unique_ptr<Optimizer>(const Tensor&)>;

// `steps` steps on gradients of a loss scaled by 8 with inv_scale 1/8 equal as many plain steps.
void expect_inv_scale_unscales(const MakeOptimizer& make, int steps) {
  Tensor plain = param({1.0, -2.0, 0.5});
  Tensor scaled = param({1.0, -2.0, 0.5});
  auto plain_opt = make(plain);
  auto scaled_opt = make(scaled);
  for (int i = 0; i < steps; ++i) {
    plain_opt->zero_grad();
    backward_square(plain);
    plain_opt->step();
    scaled_opt->zero_grad();
    backward_square(scaled, 8.0);
    scaled_opt->step(scalar_tensor(0.0, kFloat32), scalar_tensor(0.125, kFloat32));
  }
  EXPECT_TRUE(plain.allclose(scaled, 1e-15, 0.0));
  EXPECT_FALSE(plain.equal(tensor({1.0, -2.0, 0.5})));
}

TEST(Optimizer, InvScaleUnscalesGradientsInsideTheUpdate) {
  expect_inv_scale_unscales(
      [](const Tensor& p) {
        return std::make_unique<SGD>(std::vector<Tensor>{p},
                                     SGDOptions(0.1).momentum(0.9).weight_decay(0.01));
      },
      3);
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

TEST(Optimizer, TensorOpOptimizersTakePyTorchsDefaults) {
  const AdamaxOptions adamax;
  EXPECT_EQ(adamax.lr(), 2e-3);
  EXPECT_EQ(adamax.betas(), Betas(0.9, 0.999));
  EXPECT_EQ(adamax.eps(), 1e-8);
  EXPECT_EQ(adamax.weight_decay(), 0.0);
  EXPECT_FALSE(adamax.maximize());
  const NAdamOptions nadam;
  EXPECT_EQ(nadam.lr(), 2e-3);
  EXPECT_EQ(nadam.betas(), Betas(0.9, 0.999));
  EXPECT_EQ(nadam.eps(), 1e-8);
  EXPECT_EQ(nadam.momentum_decay(), 4e-3);
  EXPECT_FALSE(nadam.decoupled_weight_decay());
  EXPECT_FALSE(nadam.maximize());
  const RAdamOptions radam;
  EXPECT_EQ(radam.lr(), 1e-3);
  EXPECT_EQ(radam.betas(), Betas(0.9, 0.999));
  EXPECT_EQ(radam.eps(), 1e-8);
  EXPECT_FALSE(radam.decoupled_weight_decay());
  const AdadeltaOptions adadelta;
  EXPECT_EQ(adadelta.lr(), 1.0);
  EXPECT_EQ(adadelta.rho(), 0.9);
  EXPECT_EQ(adadelta.eps(), 1e-6);
  EXPECT_EQ(adadelta.weight_decay(), 0.0);
  EXPECT_FALSE(adadelta.maximize());
  const RpropOptions rprop;
  EXPECT_EQ(rprop.lr(), 1e-2);
  EXPECT_EQ(rprop.etas(), Betas(0.5, 1.2));
  EXPECT_EQ(rprop.step_sizes(), Betas(1e-6, 50));
  EXPECT_FALSE(rprop.maximize());
  const ASGDOptions asgd;
  EXPECT_EQ(asgd.lr(), 1e-2);
  EXPECT_EQ(asgd.lambd(), 1e-4);
  EXPECT_EQ(asgd.alpha(), 0.75);
  EXPECT_EQ(asgd.t0(), 1e6);
  EXPECT_EQ(asgd.weight_decay(), 0.0);
  EXPECT_FALSE(asgd.maximize());
  // Schedulers cycle beta1 where there are betas, as PyTorch's.
  EXPECT_EQ(NAdamOptions().get_momentum(), 0.9);
  EXPECT_EQ(AdadeltaOptions().get_momentum(), std::nullopt);
  EXPECT_EQ(RpropOptions().get_momentum(), std::nullopt);
  EXPECT_EQ(ASGDOptions().get_momentum(), std::nullopt);
}

TEST(Optimizer, TensorOpOptimizersNameTheInvalidOption) {
  Tensor p = param({1.0, 2.0});
  expect_error([&] { Adamax({p}, AdamaxOptions(-1)); }, "Adamax: invalid learning rate: -1");
  expect_error(
      [&] {
        Adamax({p}, AdamaxOptions().betas({0.9, 1.0}));
      },
      "Adamax: invalid beta2: 1 (expected in [0, 1))");
  expect_error([&] { NAdam({p}, NAdamOptions().betas({1.0, 0.9})); }, "NAdam: invalid beta1: 1");
  expect_error([&] { NAdam({p}, NAdamOptions().momentum_decay(-0.1)); },
               "NAdam: invalid momentum_decay: -0.1 (expected >= 0)");
  expect_error([&] { RAdam({p}, RAdamOptions().eps(-1e-8)); }, "RAdam: invalid epsilon: -1e-08");
  expect_error([&] { RAdam({p}, RAdamOptions().weight_decay(-1)); },
               "RAdam: invalid weight_decay: -1");
  expect_error([&] { Adadelta({p}, AdadeltaOptions().rho(1.5)); },
               "Adadelta: invalid rho: 1.5 (expected in [0, 1])");
  expect_error([&] { Adadelta({p}, AdadeltaOptions().rho(-0.5)); }, "Adadelta: invalid rho: -0.5");
  expect_error([&] { Adadelta({p}, AdadeltaOptions(-0.1)); },
               "Adadelta: invalid learning rate: -0.1");
  // PyTorch accepts rho = 1 (the averages then stay zero).
  EXPECT_NO_THROW(Adadelta({p}, AdadeltaOptions().rho(1.0)));
  expect_error(
      [&] {
        Rprop({p}, RpropOptions().etas({1.0, 1.2}));
      },
      "Rprop: invalid etas: (1, 1.2) (expected 0 < etaminus < 1 < etaplus)");
  expect_error([&] { Rprop({p}, RpropOptions().etas({0.5, 0.9})); }, "Rprop: invalid etas");
  expect_error(
      [&] {
        Rprop({p}, RpropOptions().step_sizes({0.5, 0.1}));
      },
      "Rprop: invalid step_sizes: (0.5, 0.1) (expected 0 <= minimum <= maximum)");
  expect_error([&] { Rprop({p}, RpropOptions(-0.1)); }, "Rprop: invalid learning rate: -0.1");
  expect_error([&] { ASGD({p}, ASGDOptions().lambd(-1)); }, "ASGD: invalid lambd: -1");
  expect_error([&] { ASGD({p}, ASGDOptions().alpha(-0.5)); }, "ASGD: invalid alpha: -0.5");
  expect_error([&] { ASGD({p}, ASGDOptions().weight_decay(-1)); },
               "ASGD: invalid weight_decay: -1 (expected >= 0)");
}

// The state keys after two steps on a float32 parameter, each checked for its dtype: buffers
// take the parameter's, "step" and "mu_product" are float64 numbers.
template <typename Opt, typename Options>
std::vector<std::string> state_keys_after_two_steps(const Options& options) {
  Tensor p = tensor({1.0f, -2.0f}).requires_grad_();
  Opt opt({p}, options);
  for (int i = 0; i < 2; ++i) {
    opt.zero_grad();
    backward_square(p);
    opt.step();
  }
  std::vector<std::string> keys;
  for (const auto& [key, value] : opt.state(p)) {
    if (is_scalar_state(key)) {
      EXPECT_EQ(value.dtype(), kFloat64) << key;
      EXPECT_EQ(value.dim(), 0) << key;
    } else {
      EXPECT_EQ(value.dtype(), kFloat32) << key;
      EXPECT_EQ(value.sizes(), p.sizes()) << key;
    }
    keys.push_back(key);
  }
  EXPECT_EQ(opt.state(p).at("step").template item<double>(), 2.0);
  return keys;
}

TEST(Optimizer, TensorOpOptimizersKeepPyTorchsStateNames) {
  using Keys = std::vector<std::string>;
  EXPECT_EQ(state_keys_after_two_steps<Adamax>(AdamaxOptions()),
            (Keys{"exp_avg", "exp_inf", "step"}));
  EXPECT_EQ(state_keys_after_two_steps<NAdam>(NAdamOptions()),
            (Keys{"exp_avg", "exp_avg_sq", "mu_product", "step"}));
  EXPECT_EQ(state_keys_after_two_steps<RAdam>(RAdamOptions()),
            (Keys{"exp_avg", "exp_avg_sq", "step"}));
  EXPECT_EQ(state_keys_after_two_steps<Adadelta>(AdadeltaOptions()),
            (Keys{"acc_delta", "square_avg", "step"}));
  EXPECT_EQ(state_keys_after_two_steps<Rprop>(RpropOptions()), (Keys{"prev", "step", "step_size"}));
  EXPECT_EQ(state_keys_after_two_steps<ASGD>(ASGDOptions()), (Keys{"ax", "eta", "mu", "step"}));
}

// Every element starts at step size lr, grows by etaplus while its gradient keeps its sign and
// shrinks by etaminus (standing still that step) when the sign flips.
TEST(Optimizer, RpropAdaptsEachElementsStepSize) {
  Tensor p = param({1.0, -2.0});
  Rprop opt({p}, RpropOptions(0.5).etas({0.5, 2.0}));
  const auto step_with_gradient = [&](std::initializer_list<double> grad) {
    p.set_grad(tensor(grad));
    opt.step();
  };
  step_with_gradient({1.0, -1.0});  // first step: the product with prev (zero) is zero
  EXPECT_TRUE(p.detach().equal(tensor({0.5, -1.5})));
  EXPECT_TRUE(opt.state(p).at("step_size").equal(tensor({0.5, 0.5})));
  step_with_gradient({1.0, 3.0});  // same sign, flipped sign
  EXPECT_TRUE(opt.state(p).at("step_size").equal(tensor({1.0, 0.25})));
  EXPECT_TRUE(p.detach().equal(tensor({-0.5, -1.5})));
  EXPECT_TRUE(opt.state(p).at("prev").equal(tensor({1.0, 0.0})));
}

// eta = lr / (1 + lambd * lr * t)^alpha after step t; mu = 1 / max(1, t - t0); ax averages the
// parameters once t exceeds t0.
TEST(Optimizer, ASGDDecaysItsRateAndAveragesAfterT0) {
  Tensor p = param({1.0, -2.0});
  ASGD opt({p}, ASGDOptions(0.1).lambd(0.5).alpha(0.75).t0(1));
  std::vector<Tensor> history;
  for (int t = 1; t <= 4; ++t) {
    opt.zero_grad();
    backward_square(p);
    opt.step();
    history.push_back(p.detach().clone());
    EXPECT_DOUBLE_EQ(opt.state(p).at("eta").item<double>(), 0.1 / std::pow(1 + 0.05 * t, 0.75));
    EXPECT_DOUBLE_EQ(opt.state(p).at("mu").item<double>(), 1.0 / std::max(1, t - 1));
  }
  // Steps 1-3 ran with mu = 1 (ax = p), step 4 with mu = 1/2: ax is the mean of steps 3 and 4.
  EXPECT_TRUE(opt.state(p).at("ax").allclose((history[2] + history[3]) / 2, 1e-12, 1e-12));
}

// step(closure) evaluates the closure with gradients enabled (also inside NoGradGuard), takes
// the step and returns the loss.
TEST(Optimizer, StepWithClosureEvaluatesThenUpdates) {
  Tensor p = param({1.0, -2.0});
  SGD opt({p}, SGDOptions(0.25));
  NoGradGuard no_grad;
  const Tensor loss = opt.step([&] {
    opt.zero_grad();
    Tensor l = (p * p).sum();
    l.backward();
    return l;
  });
  EXPECT_EQ(loss.item<double>(), 5.0);
  EXPECT_TRUE(p.detach().equal(tensor({0.5, -1.0})));
  EXPECT_FALSE(opt.step(LossClosure()).defined());  // no closure: a plain step
  EXPECT_TRUE(p.detach().equal(tensor({0.0, 0.0})));
}

// mu_product is the product of every step's momentum coefficient
// mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay)).
TEST(Optimizer, NAdamMuProductMultipliesEachStepsMomentumCoefficient) {
  Tensor p = param({1.0, -2.0});
  NAdam opt({p}, NAdamOptions(0.1).betas({0.8, 0.9}).momentum_decay(0.5));
  double expected = 1.0;
  for (int t = 1; t <= 3; ++t) {
    opt.zero_grad();
    backward_square(p);
    opt.step();
    expected *= 0.8 * (1 - 0.5 * std::pow(0.96, t * 0.5));
    EXPECT_DOUBLE_EQ(opt.state(p).at("mu_product").item<double>(), expected) << "step " << t;
  }
}

TEST(Optimizer, LoadStateDictKeepsAndChecksNAdamsMuProduct) {
  Tensor p = tensor({1.0f, 2.0f}).requires_grad_();
  NAdam source({p});
  backward_square(p);
  source.step();
  OptimizerStateDict dict = source.state_dict();
  const double mu_product = dict.state.at(0).at("mu_product").item<double>();

  NAdam loaded({tensor({1.0f, 2.0f}).requires_grad_()});
  loaded.load_state_dict(dict);
  const Tensor& restored = loaded.state(loaded.param_groups()[0].params()[0]).at("mu_product");
  EXPECT_EQ(restored.dtype(), kFloat64);  // not narrowed to the parameter's float32
  EXPECT_EQ(restored.item<double>(), mu_product);

  dict.state[0]["mu_product"] = tensor({0.5, 0.5});
  expect_error([&] { loaded.load_state_dict(dict); },
               "NAdam: state \"mu_product\" of parameter 0 must be a non-negative number "
               "without dimensions");
  dict.state[0]["mu_product"] = scalar_tensor(-0.5, kFloat64);
  expect_error([&] { loaded.load_state_dict(dict); }, "holding -0.5");
}

// Gradient unscaling, maximize and weight decay compose in the tensor-op updates as in the
// fused ones: a loss scaled by 8 stepped with inv_scale 1/8 equals a plain step.
TEST(Optimizer, TensorOpOptimizersUnscaleGradientsInsideTheUpdate) {
  const std::vector<std::pair<std::string, MakeOptimizer>> makers = {
      {"Adamax",
       [](const Tensor& p) {
         return std::make_unique<Adamax>(std::vector<Tensor>{p},
                                         AdamaxOptions(0.1).weight_decay(0.1).maximize(true));
       }},
      {"NAdam",
       [](const Tensor& p) {
         return std::make_unique<NAdam>(
             std::vector<Tensor>{p},
             NAdamOptions(0.1).weight_decay(0.1).decoupled_weight_decay(true));
       }},
      {"RAdam",
       [](const Tensor& p) {
         return std::make_unique<RAdam>(std::vector<Tensor>{p},
                                        RAdamOptions(0.1).betas({0.9, 0.9}).weight_decay(0.1));
       }},
      {"Adadelta",
       [](const Tensor& p) {
         return std::make_unique<Adadelta>(std::vector<Tensor>{p},
                                           AdadeltaOptions().weight_decay(0.1).maximize(true));
       }},
      {"Rprop",
       [](const Tensor& p) {
         return std::make_unique<Rprop>(std::vector<Tensor>{p}, RpropOptions(0.1).maximize(true));
       }},
      {"ASGD",
       [](const Tensor& p) {
         return std::make_unique<ASGD>(std::vector<Tensor>{p},
                                       ASGDOptions(0.1).weight_decay(0.1).t0(0));
       }},
  };
  for (const auto& [name, make] : makers) {
    SCOPED_TRACE(name);
    expect_inv_scale_unscales(make, 8);
  }
}

}  // namespace
}  // namespace accel::optim
