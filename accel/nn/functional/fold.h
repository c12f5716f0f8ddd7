// torch.nn.functional's unfold and fold: unfold lays every sliding kH x kW block of a batch of
// images out as a column (im2col, what a convolution multiplies its weight into); fold is its
// adjoint (col2im), adding each column entry back into the pixel it came from. Each is the
// other's gradient, so both differentiate any number of times.
#pragma once

#include "accel/core/tensor.h"
#include "accel/nn/functional/conv.h"

namespace accel::nn::functional {

// input [N, C, H, W] or [C, H, W] -> [N, C * kH * kW, L] or [C * kH * kW, L]: column l holds the
// l-th block (blocks in row-major order of their positions, entries channel-major then row-major
// within the block), zero where the block reads padding. Sizes take one value or two.
Tensor unfold(const Tensor& input, const ConvSizes& kernel_size, const ConvSizes& dilation = 1,
              const ConvSizes& padding = 0, const ConvSizes& stride = 1);

// input [N, C * kH * kW, L] or [C * kH * kW, L], L the number of blocks that fit output_size ->
// [N, C, H, W] or [C, H, W] with (H, W) = output_size: the sum, for each pixel, of the column
// entries unfold would have read from it (entries in the padding are dropped).
Tensor fold(const Tensor& input, const ConvSizes& output_size, const ConvSizes& kernel_size,
            const ConvSizes& dilation = 1, const ConvSizes& padding = 0,
            const ConvSizes& stride = 1);

}  // namespace accel::nn::functional
