// accel's own float erf (kernels/cpu/vector_math.h) against double-precision std::erf over a
// sample of every float (each 4099th bit pattern: every binade, both signs, subnormals), and its
// special values.
#include "accel/kernels/cpu/vector_math.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace accel::cpu::simd {
namespace {

using FloatVector = MathVector<float>;

FloatVector erf_of(const float (&x)[kLanes<float>]) { return erf(FloatVector::of(load(x))); }

// |computed - exact| in units of the float spacing at the exact value.
double ulps(float computed, double exact) {
  const float nearest = static_cast<float>(exact);
  const double spacing =
      std::nextafter(std::fabs(nearest), std::numeric_limits<float>::infinity()) -
      std::fabs(nearest);
  return std::fabs(static_cast<double>(computed) - exact) / spacing;
}

TEST(VectorMath, FloatErfIsWithinOneUlp) {
  double worst = 0;
  float worst_at = 0;
  float x[kLanes<float>];
  int filled = 0;
  auto check = [&] {
    const FloatVector y = erf_of(x);
    for (int k = 0; k < filled; ++k) {
      const double error = ulps(y.lanes[k], std::erf(static_cast<double>(x[k])));
      if (error > worst) {
        worst = error;
        worst_at = x[k];
      }
    }
    filled = 0;
  };
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 4099) {
    const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (std::isnan(value)) continue;
    x[filled++] = value;
    if (filled == kLanes<float>) check();
  }
  check();
  EXPECT_LE(worst, 1.0) << "at x = " << worst_at;
}

// The polynomials change every quarter up to 4: each boundary and its float neighbours.
TEST(VectorMath, FloatErfIsWithinOneUlpAtItsIntervalBoundaries) {
  for (int quarter = 1; quarter <= 17; ++quarter) {
    const float boundary = 0.25f * static_cast<float>(quarter);
    float x[kLanes<float>] = {};
    for (int k = 0; k < 8; ++k) {
      x[k] = std::bit_cast<float>(std::bit_cast<uint32_t>(boundary) + k - 4);
      x[k + 8] = -x[k];
    }
    const FloatVector y = erf_of(x);
    for (int k = 0; k < kLanes<float>; ++k)
      EXPECT_LE(ulps(y.lanes[k], std::erf(static_cast<double>(x[k]))), 1.0) << "at x = " << x[k];
  }
}

TEST(VectorMath, FloatErfSpecialValues) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  float x[kLanes<float>] = {0.f,    -0.f,    inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                            1e-30f, -1e-40f, 1.f, -1.f, 3.99f,
                            4.f,    1e30f};
  const FloatVector y = erf_of(x);
  EXPECT_EQ(std::bit_cast<uint32_t>(y.lanes[0]), 0u);
  EXPECT_TRUE(std::signbit(y.lanes[1]) && y.lanes[1] == 0.f);
  EXPECT_EQ(y.lanes[2], 1.f);
  EXPECT_EQ(y.lanes[3], -1.f);
  EXPECT_TRUE(std::isnan(y.lanes[4]));
  EXPECT_FLOAT_EQ(y.lanes[5], static_cast<float>(std::erf(1e-30)));
  EXPECT_LT(y.lanes[6], 0.f);
  EXPECT_EQ(y.lanes[7], -y.lanes[8]);
  EXPECT_EQ(y.lanes[10], 1.f);
  EXPECT_EQ(y.lanes[11], 1.f);
  EXPECT_LE(ulps(y.lanes[9], std::erf(3.99)), 1.0);
}

}  // namespace
}  // namespace accel::cpu::simd
