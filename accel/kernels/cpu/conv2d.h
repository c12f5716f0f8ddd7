// 2-D convolution on the CPU one image at a time: each image's columns (im2col) are unfolded
// into a buffer small enough to stay in the core's cache and multiplied there, the product
// landing straight in the image's [out_channels, out_h, out_w] block of the output. Against
// unfolding the whole batch this writes and reads no batch-sized column matrix and needs no
// transpose between [channels, batch] and [batch, channels]. The products are packed_gemm's:
// the weights are packed once per call, not once per image. One group only.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/conv_geometry.h"

namespace accel::cpu {

// out [batch, out_channels, out_h, out_w] = weight [out_channels, channels * kernel_h * kernel_w]
// times each image's columns, plus bias [out_channels] when not null. images: contiguous
// [batch, channels, height, width]. dtype: float32 or float64.
void conv2d(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
            const void* images, const void* weight, const void* bias, void* out);

// The input gradient: grad_images [batch, channels, height, width] (overwritten) = col2im of
// weightᵀ times each image's grad [out_channels, out_h, out_w]. With unit strides, the same
// sums as a convolution of grad with the flipped weights, which writes each pixel once.
void conv2d_input_grad(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
                       const void* grad, const void* weight, void* grad_images);

// The weight gradient: grad_weight [out_channels, channels * taps] (overwritten) = the sum over
// images of grad [out_channels, out_h, out_w] times the image's columns transposed. Images are
// cut into as many runs as the machine has cores (a count fixed by the machine, not by the
// thread setting); each run sums its images in order and the runs' sums are added in order,
// so the result does not depend on the thread count.
void conv2d_weight_grad(ScalarType dtype, const ConvGeometry& g, int64_t batch,
                        int64_t out_channels, const void* images, const void* grad,
                        void* grad_weight);

}  // namespace accel::cpu
