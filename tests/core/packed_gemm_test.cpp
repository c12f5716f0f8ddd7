// packed_gemm against a plain triple loop: shapes with partial row and column panels, depths
// cut into several blocks, transposed operands, an output wider than the product, and the
// accumulating form, in float32 and float64. Row-major right operands are read in place by the
// first row panel (which packs them for the others): one row panel, several, and a last,
// narrower column panel packed beforehand are all among the shapes. Right operands packed whole
// ahead of the product are read by column ranges.
#include "accel/kernels/cpu/packed_gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accel/base/error.h"
#include "core/product_checks.h"

namespace accel::cpu {
namespace {

using testing_values::exact;
using testing_values::Shape;

// How the test hands packed_gemm its left operand, and its right one: as a matrix in memory, or
// packed ahead and multiplied in two column ranges (split at a panel boundary).
enum class Left { kPacked, kInPlace };
enum class Right { kInMemory, kPackedAhead };

template <typename T>
std::vector<T> product(Shape s, const LeftOperand<T>& left, const StridedMatrix<T>& right,
                       std::vector<T> out, int64_t out_stride, bool accumulate, Right mode) {
  if (mode == Right::kInMemory) {
    PanelBuffer<T> scratch;
    packed_gemm(left, right, out.data(), out_stride, accumulate, scratch);
    return out;
  }
  PackedRight<T> packed;
  packed.pack(right);
  const int64_t split = s.n / 2 / kRightPanelWidth<T> * kRightPanelWidth<T>;
  if (split > 0) packed_gemm(left, packed, 0, split, out.data(), out_stride, accumulate);
  packed_gemm(left, packed, split, s.n - split, out.data() + split, out_stride, accumulate);
  return out;
}

template <typename T>
void check(Shape s, bool transposed_operands, bool accumulate, Left mode = Left::kPacked,
           Right right_mode = Right::kInMemory) {
  const std::vector<T> a = exact<T>(s.m * s.depth, 1), b = exact<T>(s.depth * s.n, 2);
  // Row-major, or stored transposed and read through the strides.
  const StridedMatrix<T> left = transposed_operands
                                    ? StridedMatrix<T>{a.data(), s.m, s.depth, 1, s.m}
                                    : StridedMatrix<T>{a.data(), s.m, s.depth, s.depth, 1};
  const StridedMatrix<T> right = transposed_operands
                                     ? StridedMatrix<T>{b.data(), s.depth, s.n, 1, s.depth}
                                     : StridedMatrix<T>{b.data(), s.depth, s.n, s.n, 1};
  const int64_t out_stride = s.n + 3;
  const std::vector<T> before = exact<T>(s.m * out_stride, 3);
  LeftOperand<T> operand;
  if (mode == Left::kInPlace)
    operand.read_in_place(left);
  else
    operand.pack(left);
  const std::vector<T> out = product(s, operand, right, before, out_stride, accumulate, right_mode);
  testing_values::expect_product(s, out_stride, out, before, [&](int64_t i, int64_t j) {
    const size_t at = static_cast<size_t>(i * out_stride + j);
    double sum = accumulate ? double(before[at]) : 0.0;
    for (int64_t d = 0; d < s.depth; ++d) {
      sum += double(left.data[i * left.row_stride + d * left.col_stride]) *
             double(right.data[d * right.row_stride + j * right.col_stride]);
    }
    return sum;
  });
}

// {13, 300, 1030}: right rows a page apart, and outputs that several depth blocks reread.
const Shape kShapes[] = {{1, 1, 1},      {8, 128, 32}, {13, 300, 70},
                         {64, 288, 196}, {3, 0, 5},    {13, 300, 1030}};

TEST(PackedGemm, MatchesALoopInFloat32) {
  for (const Shape& s : kShapes) {
    for (bool transposed : {false, true}) {
      for (bool accumulate : {false, true}) check<float>(s, transposed, accumulate);
    }
  }
}

TEST(PackedGemm, MatchesALoopInFloat64) {
  for (const Shape& s : kShapes) {
    for (bool transposed : {false, true}) {
      for (bool accumulate : {false, true}) check<double>(s, transposed, accumulate);
    }
  }
}

// Rows read in place: a last partial row panel must read no row past the operand's.
TEST(PackedGemm, ALeftOperandReadInPlaceMatchesALoop) {
  for (const Shape& s : kShapes) {
    for (bool accumulate : {false, true}) {
      check<float>(s, false, accumulate, Left::kInPlace);
      check<double>(s, false, accumulate, Left::kInPlace);
    }
  }
}

// A right operand packed ahead gives every element the bits packing it per product does (the
// CPU's products pack it ahead or not by the rows a thread's tile has).
TEST(PackedGemm, ARightOperandPackedAheadMatchesALoopAndGivesTheSameBits) {
  for (const Shape& s : kShapes) {
    for (bool transposed : {false, true}) {
      for (bool accumulate : {false, true}) {
        check<float>(s, transposed, accumulate, Left::kPacked, Right::kPackedAhead);
        check<double>(s, transposed, accumulate, Left::kPacked, Right::kPackedAhead);
      }
      const std::vector<float> a = exact<float>(s.m * s.depth, 1),
                               b = exact<float>(s.depth * s.n, 2);
      const LeftOperand<float> left(StridedMatrix<float>{a.data(), s.m, s.depth, s.depth, 1});
      const StridedMatrix<float> right =
          transposed ? StridedMatrix<float>{b.data(), s.depth, s.n, 1, s.depth}
                     : StridedMatrix<float>{b.data(), s.depth, s.n, s.n, 1};
      const std::vector<float> zeros(static_cast<size_t>(s.m * s.n), 0.f);
      EXPECT_EQ(product(s, left, right, zeros, s.n, false, Right::kPackedAhead),
                product(s, left, right, zeros, s.n, false, Right::kInMemory));
    }
  }
}

TEST(PackedGemm, ReadingInPlaceNeedsUnitStrideRows) {
  const std::vector<float> a = exact<float>(4 * 5, 1);
  LeftOperand<float> left;
  EXPECT_THROW(left.read_in_place(StridedMatrix<float>{a.data(), 4, 5, 1, 4}), Error);
}

TEST(PackedGemm, RepackingReusesTheLeftOperand) {
  const std::vector<float> small = exact<float>(4 * 5, 1), large = exact<float>(20 * 40, 2);
  const std::vector<float> b = exact<float>(5 * 3, 3);
  LeftOperand<float> left(StridedMatrix<float>{large.data(), 20, 40, 40, 1});
  left.pack(StridedMatrix<float>{small.data(), 4, 5, 5, 1});
  EXPECT_EQ(left.rows(), 4);
  EXPECT_EQ(left.depth(), 5);
  std::vector<float> out(4 * 3);
  PanelBuffer<float> scratch;
  packed_gemm(left, StridedMatrix<float>{b.data(), 5, 3, 3, 1}, out.data(), 3, false, scratch);
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      float expected = 0;
      for (int64_t d = 0; d < 5; ++d) expected += small[i * 5 + d] * b[d * 3 + j];
      EXPECT_FLOAT_EQ(out[i * 3 + j], expected);
    }
  }
}

}  // namespace
}  // namespace accel::cpu
