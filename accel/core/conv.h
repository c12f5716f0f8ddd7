// Convolution ops (conv1d, conv2d, conv_transpose1d, conv_transpose2d) with PyTorch's signatures
// and semantics: cross-correlation with stride, padding (numbers, or "same" / "valid"), dilation
// and groups, batched or not. im2col + GEMM forward, GEMM + col2im backward (transposed: the other
// way).
#pragma once

#include <string_view>

#include "accel/base/int_array_ref.h"
#include "accel/core/tensor.h"

namespace accel {

// input [N, C_in, H, W] (or unbatched [C_in, H, W]) * weight [C_out, C_in / groups, kH, kW]
// (+ bias [C_out]). stride / padding / dilation hold one value for both dims or one per dim.
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
// padding "valid" (none) or "same" (output size = input size; stride must be 1). An even
// effective kernel pads one more on the bottom / right, as PyTorch does.
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);

// input [N, C_in, L] (or unbatched [C_in, L]) * weight [C_out, C_in / groups, k] (+ bias).
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
              int64_t groups = 1);
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);

// The adjoint of conv2d (a "deconvolution"): input [N, C_in, H, W] (or [C_in, H, W]), weight
// [C_in, C_out / groups, kH, kW] (+ bias [C_out]); output height (H - 1) * stride - 2 * padding
// + dilation * (kH - 1) + output_padding + 1, likewise the width. PyTorch's argument order.
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);

// The adjoint of conv1d: input [N, C_in, L] (or [C_in, L]), weight [C_in, C_out / groups, k]
// (+ bias [C_out]); output length (L - 1) * stride - 2 * padding + dilation * (k - 1) +
// output_padding + 1.
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);

}  // namespace accel
