// The activation functions and layers: forwards and gradients against PyTorch fixtures
// (tests/reference/cases_nn_activations.py) through the op harness, values and gradients at
// every kink (cases_nn_activation_kinks.py), extreme inputs, the modules, PReLU's slopes,
// RReLU's random slopes, and errors.
#include <cmath>
#include <limits>

#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kActivationCases = {
    {"elu", [](const V& x) { return F::elu(x[0] * 3.0); }},
    {"elu_alpha", [](const V& x) { return F::elu(x[0], 0.4); }},
    {"selu", [](const V& x) { return F::selu(x[0] * 3.0); }},
    {"celu", [](const V& x) { return F::celu(x[0] * 3.0, 0.7); }},
    {"softplus", [](const V& x) { return F::softplus(x[0] * 15.0); }},
    {"softplus_beta_threshold", [](const V& x) { return F::softplus(x[0], 2.0, 1.5); }},
    {"hardtanh", [](const V& x) { return F::hardtanh(x[0] * 2.0); }},
    {"hardtanh_bounds", [](const V& x) { return F::hardtanh(x[0] * 2.0, -0.5, 2.0); }},
    {"relu6", [](const V& x) { return F::relu6(x[0] * 5.0); }},
    {"hardsigmoid", [](const V& x) { return F::hardsigmoid(x[0] * 3.0); }},
    {"hardswish", [](const V& x) { return F::hardswish(x[0] * 3.0); }},
    {"mish", [](const V& x) { return F::mish(x[0] * 10.0); }},
    {"logsigmoid", [](const V& x) { return F::logsigmoid(x[0] * 10.0); }},
    {"softshrink", [](const V& x) { return F::softshrink(x[0], 0.7); }},
    {"hardshrink", [](const V& x) { return F::hardshrink(x[0]); }},
    {"threshold", [](const V& x) { return F::threshold(x[0], 0.3, -2.0); }},
    {"leaky_relu", [](const V& x) { return F::leaky_relu(x[0], 0.2); }},
    {"softsign", [](const V& x) { return F::softsign(x[0] * 3.0); }},
    {"tanhshrink", [](const V& x) { return F::tanhshrink(x[0] * 2.0); }},
    {"prelu_shared", [](const V& x) { return F::prelu(x[0], x[1]); }},
    {"prelu_channels", [](const V& x) { return F::prelu(x[0], x[1]); }},
    {"prelu_channels_2d", [](const V& x) { return F::prelu(x[0], x[1]); }},
    {"rrelu_eval", [](const V& x) { return F::rrelu(x[0], 0.1, 0.3); }},
    {"glu", [](const V& x) { return F::glu(x[0]); }},
    {"glu_dim", [](const V& x) { return F::glu(x[0], 0); }},
    {"softmin", [](const V& x) { return F::softmin(x[0], 1); }},
    {"softmax2d", [](const V& x) { return nn::Softmax2d()->forward(x[0]); }},
    {"elu_3d_strided", [](const V& x) { return F::elu(x[0].transpose(0, 2)); }},
};

ACCEL_OP_TEST_SUITE(ActivationOps, "ops_nn_activations.json", kActivationCases);

// At the kinks finite differences mean nothing: values and PyTorch's gradients only.
const std::vector<OpCase> kKinkCases = {
    {"elu", [](const V& x) { return F::elu(x[0]); }},
    {"selu", [](const V& x) { return F::selu(x[0]); }},
    {"celu", [](const V& x) { return F::celu(x[0], 0.5); }},
    {"softplus", [](const V& x) { return F::softplus(x[0], 2.0, 1.0); }},
    {"hardtanh", [](const V& x) { return F::hardtanh(x[0]); }},
    {"hardtanh_bounds", [](const V& x) { return F::hardtanh(x[0], -2.0, 0.5); }},
    {"relu6", [](const V& x) { return F::relu6(x[0]); }},
    {"hardsigmoid", [](const V& x) { return F::hardsigmoid(x[0]); }},
    {"hardswish", [](const V& x) { return F::hardswish(x[0]); }},
    {"logsigmoid", [](const V& x) { return F::logsigmoid(x[0]); }},
    {"softshrink", [](const V& x) { return F::softshrink(x[0]); }},
    {"hardshrink", [](const V& x) { return F::hardshrink(x[0]); }},
    {"threshold", [](const V& x) { return F::threshold(x[0], 0.5, -2.0); }},
    {"leaky_relu", [](const V& x) { return F::leaky_relu(x[0]); }},
    {"softsign", [](const V& x) { return F::softsign(x[0]); }},
    {"prelu",
     [](const V& x) {
       return F::prelu(x[0].reshape({1, 29}), x[1]);
     }},
    {"rrelu_eval", [](const V& x) { return F::rrelu(x[0]); }},
};

constexpr const char* kKinkFixture = "ops_nn_activation_kinks.json";
class ActivationKinks : public ::testing::TestWithParam<OpCase> {};
TEST_P(ActivationKinks, ForwardMatchesPyTorch) { testing::check_forward(GetParam(), kKinkFixture); }
TEST_P(ActivationKinks, BackwardMatchesPyTorch) {
  testing::check_backward(GetParam(), kKinkFixture);
}
TEST_P(ActivationKinks, CudaMatchesCpu) {
  testing::check_cuda_matches_cpu(GetParam(), kKinkFixture);
}
TEST(ActivationKinksTable, CoversFixture) {
  testing::check_table_covers_fixture(kKinkCases, kKinkFixture);
}
INSTANTIATE_TEST_SUITE_P(Ops, ActivationKinks, ::testing::ValuesIn(kKinkCases),
                         [](const auto& info) { return info.param.name; });

// f(x) and its gradient at x, in dtype.
std::pair<double, double> value_and_gradient(Tensor (*f)(const Tensor&), double x,
                                             ScalarType dtype) {
  const Tensor input = full({1}, x, dtype).requires_grad_();
  const Tensor out = f(input);
  out.sum().backward();
  return {out.item<double>(), input.grad().item<double>()};
}

Tensor default_softplus(const Tensor& x) { return F::softplus(x); }
Tensor default_elu(const Tensor& x) { return F::elu(x); }

TEST(Activations, ExtremeInputsGiveFiniteValuesAndGradients) {
  constexpr double kHuge = 1000;
  for (ScalarType dtype : {kFloat64, kFloat32, kBFloat16}) {
    SCOPED_TRACE(to_string(dtype));
    EXPECT_EQ(value_and_gradient(default_softplus, kHuge, dtype), std::make_pair(kHuge, 1.0));
    EXPECT_EQ(value_and_gradient(default_softplus, -kHuge, dtype), std::make_pair(0.0, 0.0));
    EXPECT_EQ(value_and_gradient(F::logsigmoid, -kHuge, dtype), std::make_pair(-kHuge, 1.0));
    EXPECT_EQ(value_and_gradient(F::logsigmoid, kHuge, dtype), std::make_pair(0.0, 0.0));
    EXPECT_EQ(value_and_gradient(F::mish, kHuge, dtype), std::make_pair(kHuge, 1.0));
    EXPECT_EQ(value_and_gradient(F::mish, -kHuge, dtype), std::make_pair(0.0, 0.0));
    EXPECT_EQ(value_and_gradient(default_elu, -kHuge, dtype), std::make_pair(-1.0, 0.0));
    EXPECT_NEAR(value_and_gradient(F::softsign, -kHuge, dtype).first, -kHuge / (1 + kHuge), 1e-2);
  }
}

TEST(Activations, NanPropagates) {
  const Tensor nan = full({1}, std::numeric_limits<double>::quiet_NaN());
  for (Tensor (*f)(const Tensor&) :
       {default_elu, F::selu, default_softplus, F::relu6, F::hardsigmoid, F::hardswish, F::mish,
        F::logsigmoid, F::softsign, F::tanhshrink}) {
    EXPECT_TRUE(std::isnan(f(nan).item<double>()));
  }
  EXPECT_TRUE(std::isnan(F::hardtanh(nan).item<double>()));
  EXPECT_TRUE(std::isnan(F::softshrink(nan).item<double>()));
}

TEST(Activations, FunctionalNamesAreTheCoreOps) {
  Tensor x = randn({3, 4});
  EXPECT_TRUE(F::relu(x).equal(relu(x)));
  EXPECT_TRUE(F::gelu(x, "tanh").equal(gelu(x, "tanh")));
  EXPECT_TRUE(F::silu(x).equal(silu(x)));
  EXPECT_TRUE(F::sigmoid(x).equal(sigmoid(x)));
  EXPECT_TRUE(F::tanh(x).equal(tanh(x)));
  EXPECT_TRUE(F::softmax(x, 1).equal(softmax(x, 1)));
  EXPECT_TRUE(F::log_softmax(x, -1).equal(log_softmax(x, -1)));
  EXPECT_TRUE(F::logsigmoid(x).equal(log_sigmoid(x)));
  EXPECT_TRUE(F::elu(x, 0.3).equal(elu(x, 0.3)));
  EXPECT_TRUE(F::softmin(x, 0).equal(softmax(-x, 0)));
}

TEST(Activations, ModulesMatchFunctions) {
  const Tensor x = randn({2, 3, 4});
  EXPECT_TRUE(nn::ReLU()->forward(x).equal(relu(x)));
  EXPECT_TRUE(nn::GELU()->forward(x).equal(gelu(x)));
  EXPECT_TRUE(nn::SiLU()->forward(x).equal(silu(x)));
  EXPECT_TRUE(nn::Sigmoid()->forward(x).equal(sigmoid(x)));
  EXPECT_TRUE(nn::Tanh()->forward(x).equal(tanh(x)));
  EXPECT_TRUE(nn::ReLU6()->forward(x).equal(relu6(x)));
  EXPECT_TRUE(nn::SELU()->forward(x).equal(selu(x)));
  EXPECT_TRUE(nn::Hardsigmoid()->forward(x).equal(hardsigmoid(x)));
  EXPECT_TRUE(nn::Hardswish()->forward(x).equal(hardswish(x)));
  EXPECT_TRUE(nn::Mish()->forward(x).equal(mish(x)));
  EXPECT_TRUE(nn::LogSigmoid()->forward(x).equal(log_sigmoid(x)));
  EXPECT_TRUE(nn::Softsign()->forward(x).equal(softsign(x)));
  EXPECT_TRUE(nn::Tanhshrink()->forward(x).equal(tanhshrink(x)));
  EXPECT_TRUE(nn::LeakyReLU(0.2)->forward(x).equal(leaky_relu(x, 0.2)));
  EXPECT_TRUE(nn::ELU(0.5)->forward(x).equal(elu(x, 0.5)));
  EXPECT_TRUE(nn::CELU(0.5)->forward(x).equal(celu(x, 0.5)));
  EXPECT_TRUE(nn::Softplus(2, 3)->forward(x).equal(softplus(x, 2, 3)));
  EXPECT_TRUE(nn::Hardtanh(-0.5, 2)->forward(x).equal(hardtanh(x, -0.5, 2)));
  EXPECT_TRUE(nn::Softshrink(0.3)->forward(x).equal(softshrink(x, 0.3)));
  EXPECT_TRUE(nn::Hardshrink(0.3)->forward(x).equal(hardshrink(x, 0.3)));
  EXPECT_TRUE(nn::Threshold(0.1, 20)->forward(x).equal(threshold(x, 0.1, 20)));
  EXPECT_TRUE(nn::GLU(1)->forward(randn({2, 4})).sizes() == IntArrayRef({2, 2}));
  EXPECT_TRUE(nn::Softmin(1)->forward(x).equal(F::softmin(x, 1)));
  EXPECT_TRUE(nn::Softmax2d()->forward(x).equal(softmax(x, 0)));
  nn::RReLU rrelu(0.1, 0.3);
  rrelu->eval();
  EXPECT_TRUE(rrelu->forward(x).equal(leaky_relu(x, 0.2)));
}

TEST(Activations, ModulesPrintTheirOptions) {
  EXPECT_EQ(nn::ELU(0.5)->name(), "ELU");
  EXPECT_EQ(nn::ReLU6()->name(), "ReLU6");
  EXPECT_EQ(nn::ELU(0.5)->extra_repr(), "alpha=0.5");
  EXPECT_EQ(nn::Softplus(2, 3)->extra_repr(), "beta=2, threshold=3");
  EXPECT_EQ(nn::Hardtanh()->extra_repr(), "min_val=-1, max_val=1");
  EXPECT_EQ(nn::Threshold(0.1, 20)->extra_repr(), "threshold=0.1, value=20");
  EXPECT_EQ(nn::PReLU(3)->extra_repr(), "num_parameters=3");
}

TEST(Activations, LeakyReluGradientAtZeroIsTheSlope) {
  const Tensor x = tensor({-1.0, 0.0, 2.0}).requires_grad_();
  nn::LeakyReLU(0.1)->forward(x).sum().backward();
  EXPECT_TRUE(x.grad().allclose(tensor({0.1, 0.1, 1.0})));
}

TEST(Activations, PReLULearnsOneSlopePerChannel) {
  nn::PReLU prelu(3, 0.1);
  ASSERT_EQ(prelu->parameters().size(), 1u);
  EXPECT_TRUE(prelu->weight.equal(full({3}, 0.1)));
  const Tensor x = tensor({-1.0f, 2.0f, -3.0f, -4.0f, 5.0f, 6.0f}).view({2, 3});
  const Tensor y = prelu->forward(x);
  EXPECT_TRUE(y.allclose(tensor({-0.1f, 2.0f, -0.3f, -0.4f, 5.0f, 6.0f}).view({2, 3})));
  y.sum().backward();
  // Each channel's slope gathers the negative inputs of that channel.
  EXPECT_TRUE(prelu->weight.grad().allclose(tensor({-5.0f, 0.0f, -3.0f})));
  NoGradGuard no_grad;
  prelu->weight.fill_(0.7);
  prelu->reset_parameters();
  EXPECT_TRUE(prelu->weight.equal(full({3}, 0.1)));
}

TEST(Activations, RReLUDrawsSlopesInItsRangeWhileTraining) {
  Generator gen(3);
  const Tensor x = cat({full({5000}, -2.0), full({10}, 3.0)}).requires_grad_();
  const Tensor y = F::rrelu(x, 0.1, 0.3, true, &gen);
  const Tensor slopes = y.narrow(0, 0, 5000).detach() / -2.0;
  EXPECT_GE(slopes.min().item<double>(), 0.1);
  EXPECT_LE(slopes.max().item<double>(), 0.3);
  EXPECT_NEAR(slopes.mean().item<double>(), 0.2, 0.005);
  EXPECT_TRUE(y.narrow(0, 5000, 10).equal(full({10}, 3.0)));
  y.sum().backward();
  // The gradient is each element's own slope (1 for the positive ones).
  EXPECT_TRUE(x.grad().narrow(0, 0, 5000).equal(slopes));
  EXPECT_TRUE(x.grad().narrow(0, 5000, 10).equal(ones({10})));
  Generator same(3);
  EXPECT_TRUE(F::rrelu(x.detach(), 0.1, 0.3, true, &same).equal(y.detach()));
}

TEST(Activations, LowPrecisionKeepsTheDtype) {
  for (ScalarType dtype : {kFloat16, kBFloat16}) {
    const Tensor x = randn({4, 5}).to(dtype).requires_grad_();
    const Tensor y = F::hardswish(x);
    EXPECT_EQ(y.dtype(), dtype);
    y.sum().backward();
    EXPECT_EQ(x.grad().dtype(), dtype);
    EXPECT_TRUE(y.to(kFloat32).allclose(F::hardswish(x.detach().to(kFloat32)), 1e-2, 1e-2));
  }
}

TEST(Activations, Errors) {
  const Tensor x = randn({2, 3});
  expect_error_containing(
      [&] {
        F::elu(tensor({1, 2}));
      },
      "elu: expected a floating point tensor, got int64");
  expect_error_containing([&] { F::celu(x, 0); }, "celu: alpha must not be 0");
  expect_error_containing([&] { F::softplus(x, 0); }, "softplus: beta must not be 0");
  expect_error_containing([&] { F::hardtanh(x, 1, -1); },
                          "hardtanh: min_val must not be greater than max_val, got min_val 1 "
                          "and max_val -1");
  expect_error_containing([&] { F::softshrink(x, -0.5); },
                          "softshrink: lambd must be greater than or equal to 0, got -0.5");
  expect_error_containing(
      [&] {
        F::glu(randn({3, 5}));
      },
      "glu: the halved dim must have an even size, but dim 1 of [3, 5] is 5");
  expect_error_containing([&] { F::glu(randn({})); }, "glu: expected an input with at least one");
  expect_error_containing([&] { F::prelu(x, randn({2})); },
                          "prelu: weight has 2 elements but the input [2, 3] has 3 channels");
  expect_error_containing(
      [&] {
        F::prelu(x, randn({3, 1}));
      },
      "prelu: expected weight to be a scalar or 1-D tensor, got shape [3, 1]");
  expect_error_containing([&] { F::rrelu(x, 0.5, 0.2, true); },
                          "rrelu: lower must not be greater than upper");
  expect_error_containing([&] { nn::Softmax2d()->forward(x); },
                          "Softmax2d: expected an input of shape [N, C, H, W] or [C, H, W], got "
                          "[2, 3]");
  expect_error_containing([] { nn::PReLU(0); }, "PReLU: num_parameters must be positive, got 0");
}

}  // namespace
}  // namespace accel
