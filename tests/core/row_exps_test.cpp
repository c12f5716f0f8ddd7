// The vector passes over a row (row_exps.h, fold_row_vectors) give the bits of the scalar folds
// they replace: exp_shifted on a vector equals it lane by lane, NaN, infinities and the edges
// of its range included; sums and NaN-propagating maxima of rows of every length around the
// vector and chunk sizes equal fold_row's; softmax's stored exps and scaling equal the scalar
// loops.
#include "accel/kernels/cpu/row_exps.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace accel::cpu {
namespace {

constexpr int64_t kLengths[] = {0, 1, 15, 16, 31, 32, 33, 100, 1024, 4095, 4096, 4097, 9000};

// sin(0.37 i) * scale: terms whose sums round, so a change of order would show.
std::vector<float> row_of(int64_t n, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = std::sin(0.37f * float(i)) * scale;
  return v;
}

TEST(RowExps, VectorExpHasTheScalarBitsInEveryLane) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> inputs = {0.f,
                               -0.f,
                               -inf,
                               inf,
                               std::numeric_limits<float>::quiet_NaN(),
                               -87.3365447f,
                               -87.3365448f,
                               88.3762626f,
                               88.3762627f,
                               -103.f,
                               std::numeric_limits<float>::denorm_min(),
                               -1e-30f};
  for (float x = -110.f; x < 95.f; x += 0.0137f) inputs.push_back(x);
  while (inputs.size() % simd::kLanes<float> != 0) inputs.push_back(0.5f);
  for (size_t i = 0; i < inputs.size(); i += simd::kLanes<float>) {
    const simd::Vector<float> lanes = exp_shifted(simd::load(inputs.data() + i));
    for (int64_t k = 0; k < simd::kLanes<float>; ++k) {
      const float x = inputs[i + static_cast<size_t>(k)];
      EXPECT_EQ(std::bit_cast<uint32_t>(lanes[k]), std::bit_cast<uint32_t>(exp_shifted(x)))
          << "exp_shifted(" << x << ")";
    }
  }
}

TEST(RowExps, VectorFoldsHaveTheScalarFoldsBits) {
  for (const int64_t n : kLengths) {
    const std::vector<float> row = row_of(n, 3.f);
    const float* x = row.data();
    const auto term = [x](int64_t i) { return x[i]; };
    const auto vector_term = [x](int64_t i) { return simd::load(x + i); };
    EXPECT_EQ(std::bit_cast<uint32_t>(fold_row_vectors<Add, float>(n, vector_term, term)),
              std::bit_cast<uint32_t>(fold_row<Add, float>(n, term)))
        << "sum of " << n;
    EXPECT_EQ(row_max<float>(x, n), (fold_row<Extreme<true>, float>(n, term))) << "max of " << n;
    const float shift = n == 0 ? 0.f : row_max<float>(x, n);
    EXPECT_EQ(std::bit_cast<uint32_t>(sum_of_exps(x, shift, n)),
              std::bit_cast<uint32_t>(fold_row<Add, float>(
                  n, [x, shift](int64_t i) { return exp_shifted(x[i] - shift); })))
        << "sum of exps of " << n;
  }
}

TEST(RowExps, MaximaPropagateNaNFromAnyLane) {
  for (const int64_t n : kLengths) {
    for (const int64_t at : {int64_t(0), n / 2, n - 1}) {
      if (n == 0) continue;
      std::vector<float> row = row_of(n, 1.f);
      row[static_cast<size_t>(at)] = std::numeric_limits<float>::quiet_NaN();
      EXPECT_TRUE(std::isnan(row_max<float>(row.data(), n))) << n << " with a NaN at " << at;
    }
  }
}

TEST(RowExps, StoredExpsAndTheirScalingMatchTheScalarLoops) {
  for (const int64_t n : kLengths) {
    const std::vector<float> row = row_of(n, 5.f);
    std::vector<float> stored(row.size()), expected(row.size());
    const float shift = 2.5f;
    const float total = store_exps(row.data(), shift, stored.data(), n);
    const float expected_total = fold_row<Add, float>(n, [&](int64_t i) {
      return expected[static_cast<size_t>(i)] = exp_shifted(row[static_cast<size_t>(i)] - shift);
    });
    EXPECT_EQ(std::bit_cast<uint32_t>(total), std::bit_cast<uint32_t>(expected_total)) << n;
    EXPECT_EQ(stored, expected) << n;
    scale_row(stored.data(), 1.f / total, n);
    for (float& e : expected) e *= 1.f / expected_total;
    EXPECT_EQ(stored, expected) << n;
  }
}

}  // namespace
}  // namespace accel::cpu
