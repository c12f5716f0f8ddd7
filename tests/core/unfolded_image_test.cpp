// UnfoldedImage gives exactly im2col's columns: a product through its masked rows equals, bit for
// bit, the product through the columns, and its unfolded matrix equals them bit for bit, NaN and
// infinity included, for same-padded, dilated, 1x1 and wider kernels, output rows shorter than the
// input's, planes narrower than the kernel's reach, and planes spanning several panels with a
// one-vector last panel, in float32 and float64. One unfolding serves several images.
#include "accel/kernels/cpu/unfolded_image.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "accel/kernels/cpu/im2col.h"
#include "core/product_checks.h"

namespace accel::cpu {
namespace {

struct Case {
  int64_t height, width, kernel, pad_h, pad_w, dilation;
};

ConvGeometry geometry(const Case& c, int64_t channels) {
  ConvGeometry g{channels, c.height, c.width,    c.kernel,   c.kernel, c.pad_h, c.pad_w,
                 1,        1,        c.dilation, c.dilation, 0,        0};
  g.out_h = c.height + 2 * c.pad_h - c.dilation * (c.kernel - 1);
  g.out_w = c.width + 2 * c.pad_w - c.dilation * (c.kernel - 1);
  return g;
}

// The image's columns by im2col, row-major.
template <typename T>
std::vector<T> im2col_columns(const ConvGeometry& g, const std::vector<T>& image) {
  std::vector<T> columns(
      static_cast<size_t>(g.channels * g.kernel_h * g.kernel_w * g.out_h * g.out_w));
  im2col(std::is_same_v<T, float> ? kFloat32 : kFloat64, g, 1, image.data(), columns.data());
  return columns;
}

// Two images, the second with infinities and NaNs in every corner (where taps wrap or read
// padding), unfolded one after the other by one UnfoldedImage.
template <typename T>
std::vector<std::vector<T>> images_of(const ConvGeometry& g) {
  const int64_t size = g.channels * g.height * g.width;
  std::vector<T> second = testing_values::rounding<T>(size, T(0.7));
  for (int64_t c = 0; c < g.channels; ++c) {
    T* plane = second.data() + c * g.height * g.width;
    plane[0] = std::numeric_limits<T>::infinity();
    plane[g.width - 1] = std::numeric_limits<T>::quiet_NaN();
    plane[(g.height - 1) * g.width] = -std::numeric_limits<T>::infinity();
    plane[g.height * g.width - 1] = std::numeric_limits<T>::quiet_NaN();
  }
  return {testing_values::rounding<T>(size, T(0.1)), second};
}

template <typename T>
void check(const Case& c) {
  const ConvGeometry g = geometry(c, 3);
  ASSERT_TRUE(rows_read_contiguously(g)) << c.height << "x" << c.width;
  const int64_t depth = g.channels * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const int64_t out_channels = 11;  // two row panels: the first packs the columns for the second
  const std::vector<T> weights = testing_values::rounding<T>(out_channels * depth, T(0.2));
  const LeftOperand<T> left(StridedMatrix<T>{weights.data(), out_channels, depth, depth, 1});
  UnfoldedImage<T> unfolded(g);
  for (const std::vector<T>& image : images_of<T>(g)) {
    const std::vector<T> columns = im2col_columns(g, image);
    unfolded.set_image(image.data());
    std::vector<T> matrix(static_cast<size_t>(depth * unfolded.row_stride()));
    unfolded.unfold(matrix.data());
    for (int64_t r = 0; r < depth; ++r) {
      ASSERT_EQ(std::memcmp(matrix.data() + r * unfolded.row_stride(),
                            columns.data() + r * positions, positions * sizeof(T)),
                0)
          << "row " << r;
    }
    std::vector<T> expected(static_cast<size_t>(out_channels * positions)), got(expected.size());
    PanelBuffer<T> scratch;
    packed_gemm(left, StridedMatrix<T>{columns.data(), depth, positions, positions, 1},
                expected.data(), positions, false, scratch);
    packed_gemm(left, unfolded.columns(), got.data(), positions, false, scratch);
    ASSERT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)), 0)
        << c.height << "x" << c.width << " kernel " << c.kernel << " pad " << c.pad_h << ","
        << c.pad_w << " dilation " << c.dilation;
  }
}

const Case kCases[] = {
    {14, 14, 3, 1, 1, 1},  // the small CNN's second layer
    {20, 20, 3, 1, 1, 1},  // 400 positions: twelve full panels and a one-vector one
    {5, 7, 3, 1, 1, 1},   {9, 9, 3, 2, 2, 2}, {6, 6, 5, 2, 2, 1},
    {4, 4, 1, 0, 0, 1},   {5, 3, 3, 0, 1, 1},  // output rows fewer than the input's
    {7, 1, 3, 1, 1, 1},                        // a plane one pixel wide: every horizontal tap wraps
    {6, 2, 5, 2, 2, 1},
};

TEST(UnfoldedImage, GivesIm2colsColumnsInFloat32) {
  for (const Case& c : kCases) check<float>(c);
}

TEST(UnfoldedImage, GivesIm2colsColumnsInFloat64) {
  for (const Case& c : kCases) check<double>(c);
}

}  // namespace
}  // namespace accel::cpu
