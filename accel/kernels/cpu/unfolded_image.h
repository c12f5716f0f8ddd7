// One image's im2col columns (a row per (channel, tap), a column per output position) as a
// right operand of packed_gemm that packs itself straight from the image: a convolution's
// product then reads the image once, with no columns buffer written and read back in between.
// For the geometries whose unfolded rows are shifted stretches of a channel plane
// (rows_read_contiguously: unit strides, output rows as wide as the input's).
#pragma once

#include "accel/kernels/common/conv_geometry.h"
#include "accel/kernels/cpu/packed_gemm.h"

namespace accel::cpu {

template <typename T>
class UnfoldedImage final : public RightOperand<T> {
 public:
  // image: contiguous [channels, height, width]; g must satisfy rows_read_contiguously.
  UnfoldedImage(const ConvGeometry& g, const T* image);
  void pack(int64_t begin, int64_t depth, T* packed) const override;

 private:
  ConvGeometry g_;
  const T* image_;
};

}  // namespace accel::cpu
