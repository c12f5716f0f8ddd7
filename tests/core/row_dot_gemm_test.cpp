// row_dot_gemm against a plain loop: row counts off the 4 x 4 tile, depths shorter than a
// vector and off its width, padded rows and a wider output, in float32 and float64; and the
// same bits for an element whichever block of the output a call computes.
#include "accel/kernels/cpu/row_dot_gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/product_checks.h"

namespace accel::cpu {
namespace {

using testing_values::exact;
using testing_values::Shape;

template <typename T>
void check(Shape s) {
  // Rows padded by 5 elements, read through the row stride.
  const int64_t a_stride = s.depth + 5, b_stride = s.depth + 5, out_stride = s.n + 3;
  const std::vector<T> a = exact<T>(s.m * a_stride, 1), b = exact<T>(s.n * b_stride, 2);
  std::vector<T> out = exact<T>(s.m * out_stride, 3);
  const std::vector<T> before = out;
  row_dot_gemm<T>({a.data(), s.m, a_stride}, {b.data(), s.n, b_stride}, s.depth, out.data(),
                  out_stride);
  testing_values::expect_product(s, out_stride, out, before, [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t d = 0; d < s.depth; ++d)
      sum += double(a[i * a_stride + d]) * double(b[j * b_stride + d]);
    return sum;
  });
}

const Shape kShapes[] = {{1, 1, 1}, {4, 16, 4}, {7, 5, 9}, {32, 784, 128}, {13, 300, 6}};

TEST(RowDotGemm, MatchesALoopInFloat32) {
  for (const Shape& s : kShapes) check<float>(s);
}

TEST(RowDotGemm, MatchesALoopInFloat64) {
  for (const Shape& s : kShapes) check<double>(s);
}

TEST(RowDotGemm, AnElementIsTheSameWhicheverBlockComputesIt) {
  const Shape s{11, 203, 10};
  const std::vector<float> a = testing_values::rounding(s.m * s.depth, 0.1f),
                           b = testing_values::rounding(s.n * s.depth, 0.2f);
  std::vector<float> whole(static_cast<size_t>(s.m * s.n)), pieces(whole.size());
  row_dot_gemm<float>({a.data(), s.m, s.depth}, {b.data(), s.n, s.depth}, s.depth, whole.data(),
                      s.n);
  // Row blocks of 3, 5 and 3 against column blocks of 1, 6 and 3: other tile shapes.
  const int64_t row_cuts[] = {0, 3, 8, 11}, col_cuts[] = {0, 1, 7, 10};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      const int64_t r0 = row_cuts[r], c0 = col_cuts[c];
      row_dot_gemm<float>({a.data() + r0 * s.depth, row_cuts[r + 1] - r0, s.depth},
                          {b.data() + c0 * s.depth, col_cuts[c + 1] - c0, s.depth}, s.depth,
                          pieces.data() + r0 * s.n + c0, s.n);
    }
  }
  EXPECT_EQ(whole, pieces);
}

}  // namespace
}  // namespace accel::cpu
