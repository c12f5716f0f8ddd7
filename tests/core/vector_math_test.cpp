// accel's own float functions (kernels/cpu/float_math.h: erf, tanh, expm1, log, log1p) against
// their double-precision std:: counterparts over a sample of every float (each 4099th bit
// pattern: every binade, both signs, subnormals), at the boundaries where their polynomials
// change, and at their special values.
#include "accel/kernels/cpu/vector_math.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace accel::cpu::simd {
namespace {

using FloatVector = MathVector<float>;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Function {
  const char* name;
  FloatVector (*vector)(FloatVector);
  double (*exact)(double);
  double ulp_bound;
};
const Function kFunctions[] = {
    {"erf", [](FloatVector x) { return erf(x); }, [](double x) { return std::erf(x); }, 1.0},
    {"tanh", [](FloatVector x) { return tanh(x); }, [](double x) { return std::tanh(x); }, 1.5},
    {"expm1", [](FloatVector x) { return expm1(x); }, [](double x) { return std::expm1(x); }, 1.5},
    {"log", [](FloatVector x) { return log(x); }, [](double x) { return std::log(x); }, 1.0},
    {"log1p", [](FloatVector x) { return log1p(x); }, [](double x) { return std::log1p(x); }, 1.0},
};

// |computed - exact| in units of the float spacing at the exact value; 0 where both are the same
// infinity or both NaN, and infinite where only one is.
double ulps(float computed, double exact) {
  if (std::isnan(exact) || std::isinf(exact)) {
    const bool same = std::isnan(exact) ? std::isnan(computed) : computed == exact;
    return same ? 0.0 : std::numeric_limits<double>::infinity();
  }
  const float nearest = static_cast<float>(exact);
  double spacing = std::nextafter(std::fabs(nearest), kInf) - std::fabs(nearest);
  if (std::isinf(spacing)) spacing = std::fabs(nearest) - std::nextafter(std::fabs(nearest), 0.f);
  return std::fabs(static_cast<double>(computed) - exact) / spacing;
}

struct Worst {
  double ulps = 0;
  float at = 0;
};

// The largest error of f over `inputs`, a vector's worth at a time.
Worst worst_error(const Function& f, const std::vector<float>& inputs) {
  Worst worst;
  for (size_t first = 0; first < inputs.size(); first += kLanes<float>) {
    float x[kLanes<float>] = {};
    const size_t count = std::min<size_t>(kLanes<float>, inputs.size() - first);
    std::copy_n(inputs.begin() + static_cast<std::ptrdiff_t>(first), count, x);
    const FloatVector y = f.vector(FloatVector::of(load(x)));
    for (size_t k = 0; k < count; ++k) {
      const double error = ulps(y.lanes[k], f.exact(static_cast<double>(x[k])));
      if (!(error <= worst.ulps)) worst = {error, x[k]};
    }
  }
  return worst;
}

TEST(VectorMath, FloatFunctionsAreWithinTheirBoundsOverEveryRange) {
  std::vector<float> sample;
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 4099) {
    sample.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  }
  for (const Function& f : kFunctions) {
    const Worst worst = worst_error(f, sample);
    EXPECT_LE(worst.ulps, f.ulp_bound) << f.name << " at x = " << worst.at;
  }
}

// Each boundary where a polynomial or a branch changes, and its float neighbours, both signs.
TEST(VectorMath, FloatFunctionsAreWithinTheirBoundsAtTheirBoundaries) {
  const std::vector<float> boundaries = {
      0.25f,       0.5f,        0.75f,     1.f,    1.25f,  1.5f,  2.f,
      3.f,         3.5f,        4.f,       4.5f,   7.5f,   8.f,   9.02f,
      0.34657359f, 1.03972077f, 17.32f,    18.f,   88.7f,  89.f,  0.70710678f,
      1.41421356f, 0x1p-24f,    0x1p-126f, 1e-30f, 0.999f, 1e30f, 3e38f};
  std::vector<float> inputs;
  for (float boundary : boundaries) {
    for (int step = -4; step <= 4; ++step) {
      const float x = std::bit_cast<float>(std::bit_cast<uint32_t>(boundary) + step);
      inputs.push_back(x);
      inputs.push_back(-x);
    }
  }
  for (const Function& f : kFunctions) {
    const Worst worst = worst_error(f, inputs);
    EXPECT_LE(worst.ulps, f.ulp_bound) << f.name << " at x = " << worst.at;
  }
}

// The lanes of f at x, for special values.
std::vector<float> values(FloatVector (*f)(FloatVector), std::vector<float> x) {
  float lanes[kLanes<float>] = {};
  std::copy(x.begin(), x.end(), lanes);
  const FloatVector y = f(FloatVector::of(load(lanes)));
  std::vector<float> y_lanes(x.size());
  for (size_t k = 0; k < x.size(); ++k) y_lanes[k] = y.lanes[k];
  return y_lanes;
}
bool is_negative_zero(float x) { return x == 0.f && std::signbit(x); }
bool is_positive_zero(float x) { return x == 0.f && !std::signbit(x); }

TEST(VectorMath, FloatErfAndTanhSpecialValues) {
  for (const auto f : {kFunctions[0].vector, kFunctions[1].vector}) {
    const auto y = values(f, {0.f, -0.f, kInf, -kInf, kNaN, 1e-40f, -1e-40f, 1e30f, -9.5f});
    EXPECT_TRUE(is_positive_zero(y[0]));
    EXPECT_TRUE(is_negative_zero(y[1]));
    EXPECT_EQ(y[2], 1.f);
    EXPECT_EQ(y[3], -1.f);
    EXPECT_TRUE(std::isnan(y[4]));
    EXPECT_GT(y[5], 0.f);
    EXPECT_LT(y[6], 0.f);
    EXPECT_EQ(y[7], 1.f);
    EXPECT_EQ(y[8], -1.f);
  }
}

TEST(VectorMath, FloatExpm1SpecialValues) {
  const auto y = values(kFunctions[2].vector,
                        {0.f, -0.f, kInf, -kInf, kNaN, 1e-40f, -1e-40f, 89.f, 88.7f, -20.f});
  EXPECT_TRUE(is_positive_zero(y[0]));
  EXPECT_TRUE(is_negative_zero(y[1]));
  EXPECT_EQ(y[2], kInf);
  EXPECT_EQ(y[3], -1.f);
  EXPECT_TRUE(std::isnan(y[4]));
  EXPECT_EQ(y[5], 1e-40f);
  EXPECT_EQ(y[6], -1e-40f);
  EXPECT_EQ(y[7], kInf);
  EXPECT_LE(ulps(y[8], std::expm1(static_cast<double>(88.7f))), 1.5);
  EXPECT_EQ(y[9], -1.f);
}

TEST(VectorMath, FloatLogAndLog1pSpecialValues) {
  const auto log_y = values(kFunctions[3].vector,
                            {0.f, -0.f, kInf, -kInf, kNaN, -1.f, 1.f, 1e-45f, 0x1p-149f, 3.4e38f});
  EXPECT_EQ(log_y[0], -kInf);
  EXPECT_EQ(log_y[1], -kInf);
  EXPECT_EQ(log_y[2], kInf);
  EXPECT_TRUE(std::isnan(log_y[3]));
  EXPECT_TRUE(std::isnan(log_y[4]));
  EXPECT_TRUE(std::isnan(log_y[5]));
  EXPECT_TRUE(is_positive_zero(log_y[6]));
  EXPECT_LE(ulps(log_y[7], std::log(static_cast<double>(1e-45f))), 1.0);
  EXPECT_LE(ulps(log_y[8], std::log(0x1p-149)), 1.0);
  EXPECT_LE(ulps(log_y[9], std::log(static_cast<double>(3.4e38f))), 1.0);

  const auto log1p_y = values(kFunctions[4].vector,
                              {0.f, -0.f, kInf, -kInf, kNaN, -1.f, -2.f, 1e-40f, -1e-40f, 3e38f});
  EXPECT_TRUE(is_positive_zero(log1p_y[0]));
  EXPECT_TRUE(is_negative_zero(log1p_y[1]));
  EXPECT_EQ(log1p_y[2], kInf);
  EXPECT_TRUE(std::isnan(log1p_y[3]));
  EXPECT_TRUE(std::isnan(log1p_y[4]));
  EXPECT_EQ(log1p_y[5], -kInf);
  EXPECT_TRUE(std::isnan(log1p_y[6]));
  EXPECT_EQ(log1p_y[7], 1e-40f);
  EXPECT_EQ(log1p_y[8], -1e-40f);
  EXPECT_LE(ulps(log1p_y[9], std::log1p(static_cast<double>(3e38f))), 1.0);
}

}  // namespace
}  // namespace accel::cpu::simd
