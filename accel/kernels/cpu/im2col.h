// im2col and col2im for 2-D convolution: unfold every receptive field of an image into one
// column so that a convolution becomes a matrix product (and fold columns back, summing
// overlaps, for the input gradient). Conv1d uses them with a unit height.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/conv_geometry.h"

namespace accel::cpu {

// images: contiguous [batch, channels, height, width]; columns: contiguous
// [channels * kernel_h * kernel_w, batch, out_h * out_w] — one row per (channel, tap) holding
// every image's outputs, so that one GEMM covers the whole batch. Zero where a field reads
// padding. dtype: float32 or float64.
void im2col(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* images,
            void* columns);

// Unit strides and output rows as wide as the input's (a "same" convolution): then a tap's
// in-bounds rows read one contiguous stretch of the plane, which im2col copies at once; the
// entries that wrapped around a row edge, which read padding, are zeroed afterwards.
bool rows_read_contiguously(const ConvGeometry& g);

// The adjoint of im2col: images (overwritten) = the sum of every column entry into the pixel
// it was read from; entries that read padding are dropped.
void col2im(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* columns,
            void* images);

}  // namespace accel::cpu
