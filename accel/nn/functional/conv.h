// Functional convolutions (torch.nn.functional's conv1d, conv2d, conv3d and their transposed
// forms): the 1-D and 2-D ones over the core ops in accel/core/conv.h, the 3-D ones composed of
// 2-D ones, with argument types that let sizes be one number or one per dim and padding be
// numbers or "same" / "valid".
#pragma once

#include <concepts>
#include <initializer_list>
#include <string>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// A size argument: one value for every spatial dim (3) or one per dim ({3, 5}).
struct ConvSizes {
  template <std::integral I>
  ConvSizes(I value) : values{static_cast<int64_t>(value)} {}
  ConvSizes(std::initializer_list<int64_t> list) : values(list) {}
  ConvSizes(std::vector<int64_t> list) : values(std::move(list)) {}
  std::vector<int64_t> values;
};

// Padding: numbers as ConvSizes, or the mode "same" / "valid" (mode non-empty).
struct ConvPadding {
  template <std::integral I>
  ConvPadding(I value) : values{static_cast<int64_t>(value)} {}
  ConvPadding(std::initializer_list<int64_t> list) : values(list) {}
  ConvPadding(std::vector<int64_t> list) : values(std::move(list)) {}
  ConvPadding(const char* padding_mode) : mode(padding_mode) {}
  ConvPadding(std::string padding_mode) : mode(std::move(padding_mode)) {}
  std::vector<int64_t> values;
  std::string mode;
};

// input [N, C_in, H, W] or [C_in, H, W]; weight [C_out, C_in / groups, kH, kW]; bias [C_out].
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              const ConvSizes& stride = 1, const ConvPadding& padding = 0,
              const ConvSizes& dilation = 1, int64_t groups = 1);

// input [N, C_in, L] or [C_in, L]; weight [C_out, C_in / groups, k]; bias [C_out].
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              const ConvSizes& stride = 1, const ConvPadding& padding = 0,
              const ConvSizes& dilation = 1, int64_t groups = 1);

// The adjoint of conv2d: input [N, C_in, H, W] or [C_in, H, W]; weight
// [C_in, C_out / groups, kH, kW]; bias [C_out]. PyTorch's argument order.
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        const ConvSizes& stride = 1, const ConvSizes& padding = 0,
                        const ConvSizes& output_padding = 0, int64_t groups = 1,
                        const ConvSizes& dilation = 1);

// The adjoint of conv1d: input [N, C_in, L] or [C_in, L]; weight [C_in, C_out / groups, k];
// bias [C_out]. PyTorch's argument order.
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        const ConvSizes& stride = 1, const ConvSizes& padding = 0,
                        const ConvSizes& output_padding = 0, int64_t groups = 1,
                        const ConvSizes& dilation = 1);

// input [N, C_in, D, H, W] or [C_in, D, H, W]; weight [C_out, C_in / groups, kD, kH, kW];
// bias [C_out].
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
              const ConvSizes& stride = 1, const ConvPadding& padding = 0,
              const ConvSizes& dilation = 1, int64_t groups = 1);

// The adjoint of conv3d: input [N, C_in, D, H, W] or [C_in, D, H, W]; weight
// [C_in, C_out / groups, kD, kH, kW]; bias [C_out]. PyTorch's argument order.
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        const ConvSizes& stride = 1, const ConvSizes& padding = 0,
                        const ConvSizes& output_padding = 0, int64_t groups = 1,
                        const ConvSizes& dilation = 1);

}  // namespace accel::nn::functional
