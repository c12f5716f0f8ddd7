// The functional layers: linear and leaky_relu against PyTorch fixtures
// (tests/reference/cases_nn_functional.py), dropout's statistics and modes, and errors.
#include <string>

#include "accel/nn/functional/activations.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kFunctionalCases = {
    {"linear", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"linear_no_bias", [](const V& x) { return F::linear(x[0], x[1]); }},
    {"linear_batched", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"linear_vector", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"leaky_relu", [](const V& x) { return F::leaky_relu(x[0]); }},
    {"leaky_relu_slope", [](const V& x) { return F::leaky_relu(x[0], 0.2); }},
};

ACCEL_OP_TEST_SUITE(FunctionalOps, "ops_nn_functional.json", kFunctionalCases);

TEST(FunctionalLinear, InFeaturesMismatchNamesShapes) {
  try {
    (void)F::linear(zeros({2, 4}), zeros({5, 3}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("linear"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[2, 4]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[5, 3]"), std::string::npos) << msg;
  }
  EXPECT_THROW((void)F::linear(zeros({2, 3}), zeros({5, 3}), zeros({4})), Error);
}

TEST(FunctionalLeakyRelu, GradientAtZeroIsTheSlope) {
  const Tensor x = zeros({1}, kFloat64).requires_grad_();
  F::leaky_relu(x, 0.3).sum().backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 0.3);
}

TEST(FunctionalDropout, EvalAndZeroProbabilityAreIdentity) {
  const Tensor x = randn({10});
  EXPECT_TRUE(F::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(F::dropout(x, 0.0, true).is_same(x));
  EXPECT_TRUE(F::dropout(x, 1.0, true).equal(zeros({10})));
}

TEST(FunctionalDropout, KeepsExpectationAndScalesSurvivors) {
  Generator gen(7);
  const double p = 0.3;
  const Tensor x = ones({200000}, kFloat64).requires_grad_();
  const Tensor y = F::dropout(x, p, true, &gen);
  const double kept = (y > 0).to(kFloat64).mean().item<double>();
  EXPECT_NEAR(kept, 1 - p, 5e-3);
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 1e-2);
  // Survivors are exactly 1 / (1 - p); the gradient is the same mask.
  EXPECT_TRUE(
      y.eq(0).to(kInt64).add(y.eq(1 / (1 - p)).to(kInt64)).eq(1).to(kInt64).sum().item<int64_t>() ==
      200000);
  y.sum().backward();
  EXPECT_TRUE(x.grad().equal(y.detach()));
}

TEST(FunctionalDropout, RejectsBadProbability) {
  EXPECT_THROW((void)F::dropout(ones({2}), 1.5), Error);
  EXPECT_THROW((void)F::dropout(ones({2}), -0.1), Error);
}

}  // namespace
}  // namespace accel
