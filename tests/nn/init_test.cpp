// nn::init tests: each initializer's distribution (moments and bounds against torch.nn.init's
// formulas), the truncated normal's moments, the identity initializers, Linear's default
// initialization, and that filling records no autograd history.
#include <cmath>
#include <functional>
#include <numbers>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

// Mean and standard deviation of a tensor's values, in double.
std::pair<double, double> moments(const Tensor& t) {
  Tensor d = t.detach().to(kFloat64);
  return {d.mean().item<double>(), d.std().item<double>()};
}

TEST(Linear, DefaultInitMatchesPyTorchBounds) {
  manual_seed(0);
  nn::Linear linear(400, 300);
  // kaiming_uniform_(a = sqrt(5)) gives bound sqrt(6 / ((1 + 5) * fan_in)) = 1/sqrt(fan_in).
  double bound = 1.0 / std::sqrt(400.0);
  for (const Tensor& t : {linear->weight, linear->bias}) {
    EXPECT_LE(t.abs().max().item<double>(), bound);
    EXPECT_GT(t.abs().max().item<double>(), 0.95 * bound);
  }
  auto [mean, std] = moments(linear->weight);
  EXPECT_NEAR(mean, 0, 0.01 * bound);
  EXPECT_NEAR(std, bound / std::sqrt(3.0), 0.01 * bound);
  EXPECT_EQ(linear->weight.dtype(), kFloat32);
}

TEST(Init, CalculateGain) {
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("linear"), 1.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("sigmoid"), 1.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("tanh"), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("relu"), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu"), std::sqrt(2.0 / (1 + 1e-4)));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu", 0.2), std::sqrt(2.0 / 1.04));
  EXPECT_THROW(nn::init::calculate_gain("swish"), Error);
}

TEST(Init, FansIncludeReceptiveField) {
  auto [fan_in, fan_out] = nn::init::calculate_fan_in_and_fan_out(empty({8, 3, 5, 5}));
  EXPECT_EQ(fan_in, 75);
  EXPECT_EQ(fan_out, 200);
  EXPECT_THROW(nn::init::calculate_fan_in_and_fan_out(empty({4})), Error);
}

TEST(Init, DistributionsHaveTorchMomentsAndBounds) {
  manual_seed(1);
  const int64_t out = 200, in = 300;
  const double n = out * in;
  struct Expect {
    const char* name;
    std::function<Tensor(Tensor)> init;
    double std;
    double bound;  // 0: unbounded
  };
  const double xavier = std::sqrt(2.0 / (in + out));
  const std::vector<Expect> cases = {
      {"uniform", [](Tensor t) { return nn::init::uniform_(t, -2, 2); }, 2 / std::sqrt(3.0), 2},
      {"normal", [](Tensor t) { return nn::init::normal_(t, 0, 0.5); }, 0.5, 0},
      {"xavier_uniform", [](Tensor t) { return nn::init::xavier_uniform_(t); }, xavier,
       std::sqrt(3.0) * xavier},
      {"xavier_normal", [](Tensor t) { return nn::init::xavier_normal_(t, 2); }, 2 * xavier, 0},
      {"kaiming_uniform_relu",
       [](Tensor t) { return nn::init::kaiming_uniform_(t, 0, "fan_in", "relu"); },
       std::sqrt(2.0 / in), std::sqrt(6.0 / in)},
      {"kaiming_normal_fan_out",
       [](Tensor t) { return nn::init::kaiming_normal_(t, 0, "fan_out", "relu"); },
       std::sqrt(2.0 / out), 0},
      {"kaiming_normal_leaky", [](Tensor t) { return nn::init::kaiming_normal_(t, 0.1); },
       std::sqrt(2.0 / (1 + 0.01)) / std::sqrt(double(in)), 0},
  };
  for (const Expect& c : cases) {
    Tensor t = empty({out, in}).requires_grad_();
    Tensor result = c.init(t);
    EXPECT_TRUE(result.is_same(t)) << c.name;
    EXPECT_TRUE(t.is_leaf()) << c.name;  // filled without recording history
    auto [mean, std] = moments(t);
    // Sampling error of the mean is std/sqrt(n); allow 5 of those, and 2% on the std.
    EXPECT_NEAR(mean, 0, 5 * c.std / std::sqrt(n)) << c.name;
    EXPECT_NEAR(std, c.std, 0.02 * c.std) << c.name;
    if (c.bound > 0) {
      EXPECT_LE(t.abs().max().item<double>(), c.bound) << c.name;
    }
  }
  EXPECT_THROW(nn::init::kaiming_uniform_(empty({2, 2}), 0, "fan_sideways"), Error);
}

TEST(Init, Constants) {
  Tensor t = empty({3, 2}, kFloat64).requires_grad_();
  nn::init::constant_(t, 0.25);
  EXPECT_TRUE(t.equal(full({3, 2}, 0.25, kFloat64)));
  nn::init::ones_(t);
  EXPECT_TRUE(t.equal(ones({3, 2}, kFloat64)));
  nn::init::zeros_(t);
  EXPECT_TRUE(t.equal(zeros({3, 2}, kFloat64)));
  EXPECT_TRUE(t.is_leaf());
}

// The truncated normal's mean and standard deviation, from the standard normal's density and
// distribution function at the standardized bounds.
std::pair<double, double> truncated_normal_moments(double mean, double std, double a, double b) {
  const auto pdf = [](double x) { return std::exp(-x * x / 2) / std::sqrt(2 * std::numbers::pi); };
  const auto cdf = [](double x) { return (1 + std::erf(x / std::sqrt(2.0))) / 2; };
  const double alpha = (a - mean) / std, beta = (b - mean) / std;
  const double mass = cdf(beta) - cdf(alpha);
  const double shift = (pdf(alpha) - pdf(beta)) / mass;
  const double variance = 1 + (alpha * pdf(alpha) - beta * pdf(beta)) / mass - shift * shift;
  return {mean + std * shift, std * std::sqrt(variance)};
}

TEST(Init, TruncatedNormalStaysInItsBoundsWithItsMoments) {
  manual_seed(6);
  Tensor t = empty({300, 400}).requires_grad_();
  EXPECT_TRUE(nn::init::trunc_normal_(t, 1, 2, -1, 4).is_same(t));
  EXPECT_TRUE(t.is_leaf());
  EXPECT_GE(t.min().item<double>(), -1);
  EXPECT_LE(t.max().item<double>(), 4);
  const auto [mean, std] = moments(t);
  const auto [expected_mean, expected_std] = truncated_normal_moments(1, 2, -1, 4);
  EXPECT_NEAR(mean, expected_mean, 5 * expected_std / std::sqrt(120000.0));
  EXPECT_NEAR(std, expected_std, 0.02 * expected_std);
  // The default: N(0, 1) cut at +-2.
  Tensor standard = nn::init::trunc_normal_(empty({1000, 100}, kFloat64));
  EXPECT_LE(standard.abs().max().item<double>(), 2);
  EXPECT_NEAR(moments(standard).second, truncated_normal_moments(0, 1, -2, 2).second, 0.01);
  testing::expect_error_containing([] { nn::init::trunc_normal_(empty({2}), 0, 1, 2, -2); },
                                   "trunc_normal_: expected std > 0 and a < b");
}

TEST(Init, EyeAndDiracAreIdentities) {
  Tensor matrix = empty({3, 5}, kFloat64).requires_grad_();
  nn::init::eye_(matrix);
  EXPECT_TRUE(matrix.equal(eye(3, 5, kFloat64)));
  EXPECT_TRUE(matrix.is_leaf());
  testing::expect_error_containing(
      [] {
        nn::init::eye_(empty({2, 2, 2}));
      },
      "eye_: only tensors with 2 dimensions are supported");
  manual_seed(7);
  const Tensor image = randn({2, 3, 5, 4});
  const Tensor kernel = nn::init::dirac_(empty({3, 3, 3, 3}));
  EXPECT_TRUE(F::conv2d(image, kernel, {}, 1, 1).equal(image));
  // Groups: output channel 2g + d takes channel d of group g, the same channel of the input.
  const Tensor signal = randn({1, 4, 6});
  const Tensor grouped = nn::init::dirac_(empty({4, 2, 3}), 2);
  EXPECT_TRUE(F::conv1d(signal, grouped, {}, 1, 1, 1, 2).equal(signal));
  EXPECT_EQ(nn::init::dirac_(empty({2, 4, 3, 3, 3})).sum().item<double>(), 2);
  testing::expect_error_containing(
      [] {
        nn::init::dirac_(empty({4, 4}));
      },
      "dirac_: only tensors with 3, 4, or 5 dimensions");
  testing::expect_error_containing(
      [] {
        nn::init::dirac_(empty({3, 1, 3}), 2);
      },
      "dirac_: dim 0 (size 3) must be divisible by groups (2)");
}

}  // namespace
}  // namespace accel
