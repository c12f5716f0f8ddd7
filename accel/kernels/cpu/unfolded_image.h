// An image's im2col columns (a row per (channel, tap), a column per output position) as masked
// rows that packed_gemm reads as its right operand, or unfolded into a matrix in one pass: a
// convolution's product then reads the image once, with no packing pass of its own. For the
// geometries whose unfolded rows are shifted stretches of a channel plane (rows_read_contiguously:
// unit strides, output rows as wide as the input's). Each image is first copied between zero gaps
// as wide as the farthest shift, so that a row's reads above or below the plane find zeros; the
// output columns whose read wrapped around a row edge are cleared with a lane mask per
// horizontal tap. Every vector of the columns is then one load and one mask, with no branch on
// the borders.
#pragma once

#include <vector>

#include "accel/kernels/common/conv_geometry.h"
#include "accel/kernels/cpu/packed_gemm.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

template <typename T>
class UnfoldedImage {
 public:
  // g must satisfy rows_read_contiguously. A thread builds one per geometry and sets the images
  // it unfolds one after another.
  explicit UnfoldedImage(const ConvGeometry& g);
  // Unfolds `image` (contiguous [channels, height, width]) from now on: copies it in.
  void set_image(const T* image);
  // The columns of the image set, as packed_gemm's right operand.
  MaskedRows<T> columns() const;
  // Writes the columns as a matrix: row r at out + r * row_stride(), zero past the last column.
  void unfold(T* out) const;
  // The row stride unfold() writes: the columns rounded up to whole vectors.
  int64_t row_stride() const { return vectors_per_row_ * simd::kLanes<T>; }

 private:
  int64_t positions_, vectors_per_row_, gap_;
  std::vector<MaskedRow> rows_;
  std::vector<simd::LaneMask<T>> kept_;  // [kernel_w][vectors_per_row_]: a horizontal tap's lanes
  PanelBuffer<T> buffer_;
  T* planes_;  // in buffer_: gap, plane 0, gap, plane 1, ..., gap
  int64_t channels_, plane_, plane_stride_;
};

}  // namespace accel::cpu
