// 2-D pooling ops over [N, C, H, W] or [C, H, W] inputs (torch's max_pool2d, avg_pool2d and
// adaptive_avg_pool2d), with PyTorch's output sizes (ceil_mode included) and gradients.
// Sizes given as one value apply to both spatial dims; an empty stride means the kernel size.
#pragma once

#include <utility>

#include "accel/core/tensor.h"

namespace accel {

// The window maxima and, for each, the flat index h * W + w of the chosen input element
// within its plane (int64). The gradient flows to those elements only.
std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                  IntArrayRef stride = {},
                                                  IntArrayRef padding = {0},
                                                  IntArrayRef dilation = {1},
                                                  bool ceil_mode = false);
Tensor max_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = {0}, IntArrayRef dilation = {1}, bool ceil_mode = false);

// The window means; count_include_pad divides by the window size including zero padding.
Tensor avg_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = {0}, bool ceil_mode = false, bool count_include_pad = true);

// Means over the windows [floor(i * in / out), ceil((i + 1) * in / out)) in each dim, for an
// output of spatial size output_size.
Tensor adaptive_avg_pool2d(const Tensor& input, IntArrayRef output_size);

// PyTorch's pooling output size: the number of windows along a dim of `size` elements padded
// by `pad` on each side; with ceil_mode a partial last window counts if it starts inside the
// input or its left padding.
int64_t pooled_size(int64_t size, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation,
                    bool ceil_mode);

}  // namespace accel
