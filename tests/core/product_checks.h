// For the tests of the CPU product kernels (packed_gemm, row_dot_gemm, UnfoldedImage): operand
// values — exact ones, whose sums come out the same in any order, and rounding ones, whose sums
// would show a change of order — and the check of a product against one computed in double.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace accel::cpu::testing_values {

// A product's sizes: an m x depth operand times a depth x n one.
struct Shape {
  int64_t m, depth, n;
};

// Small multiples of 1/8: every sum is exact, whatever its order.
template <typename T>
std::vector<T> exact(int64_t count, int seed) {
  std::vector<T> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    v[static_cast<size_t>(i)] = T(((i * 7 + seed * 13) % 23) - 11) / T(8);
  return v;
}

// sin(0.37 i + phase): sums that round.
template <typename T>
std::vector<T> rounding(int64_t count, T phase) {
  std::vector<T> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) v[static_cast<size_t>(i)] = std::sin(T(0.37) * T(i) + phase);
  return v;
}

// Checks the rows of `out` (row stride out_stride) a kernel wrote: element (i, j < s.n) against
// expected(i, j), the product computed in double; the entries past s.n unchanged from `before`.
template <typename T, typename Expected>
void expect_product(const Shape& s, int64_t out_stride, const std::vector<T>& out,
                    const std::vector<T>& before, const Expected& expected) {
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < out_stride; ++j) {
      const size_t at = static_cast<size_t>(i * out_stride + j);
      if (j >= s.n) {
        EXPECT_EQ(out[at], before[at]) << "wrote past the product at " << i << "," << j;
        continue;
      }
      const double want = expected(i, j);
      EXPECT_NEAR(double(out[at]), want, 1e-9 * (1 + std::abs(want)))
          << s.m << "x" << s.depth << "x" << s.n << " at " << i << "," << j;
    }
  }
}

}  // namespace accel::cpu::testing_values
