// F::conv3d and F::conv_transpose3d composed of the 2-D convolutions. conv3d cuts the input into
// its depth windows and lays each output depth's window out as one image of C_in * kD channels,
// so a single conv2d with the weight viewed as [C_out, C_in / groups * kD, kH, kW] computes every
// output plane. conv_transpose3d runs each input plane through a single conv_transpose2d with
// the weight viewed as [C_in, C_out / groups * kD, kH, kW], which yields the kD planes that
// input depth adds to the output, and sums those into their output depths with fold. Both are
// made of differentiable ops, so their gradients and every device come with them.
#include <array>

#include "accel/core/autocast.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/conv.h"
#include "accel/nn/functional/fold.h"
#include "accel/nn/functional/pad.h"
#include "accel/nn/functional/windows_along.h"

namespace accel::nn::functional {

namespace {

using Sizes3d = std::array<int64_t, 3>;

Sizes3d per_dim(const std::vector<int64_t>& values, const char* what, const char* op) {
  ACCEL_CHECK(values.size() == 1 || values.size() == 3, op,
              "expected {} to hold 1 or 3 values, got {}", what, values);
  return values.size() == 1 ? Sizes3d{values[0], values[0], values[0]}
                            : Sizes3d{values[0], values[1], values[2]};
}

void check_positive(const Sizes3d& stride, const Sizes3d& padding, const Sizes3d& dilation,
                    const char* op) {
  for (size_t i = 0; i < 3; ++i) {
    ACCEL_CHECK(stride[i] > 0 && dilation[i] > 0 && padding[i] >= 0, op,
                "stride and dilation must be positive and padding non-negative, got stride {}, "
                "padding {}, dilation {}",
                stride, padding, dilation);
  }
}

// The checks both convolutions share (weight [C_out, C_in / groups, ...], or [C_in, C_out /
// groups, ...] when transposed); returns the input with its batch dim.
Tensor checked_batched_input(const Tensor& input, const Tensor& weight, const Tensor& bias,
                             int64_t groups, bool transposed, const char* op) {
  ACCEL_CHECK(input.dim() == 4 || input.dim() == 5, op,
              "Expected 4D (unbatched) or 5D (batched) input to {}, but got input of size: {}", op,
              input.sizes());
  ACCEL_CHECK(weight.dim() == 5, op, "expected 5-D weight, got weight of size {}", weight.sizes());
  ACCEL_CHECK(groups > 0, op, "non-positive groups is not supported, got {}", groups);
  ACCEL_CHECK(input.is_floating_point(), op, "not implemented for dtype {}", input.dtype());
  ACCEL_CHECK(input.dtype() == weight.dtype() && (!bias.defined() || bias.dtype() == input.dtype()),
              op, "input, weight and bias must have the same dtype, got {}, {} and {}",
              input.dtype(), weight.dtype(), bias.defined() ? bias.dtype() : input.dtype());
  ACCEL_CHECK(
      weight.device() == input.device() && (!bias.defined() || bias.device() == input.device()), op,
      "expected input, weight and bias on one device, got {}, {} and {}", input.device(),
      weight.device(), bias.defined() ? bias.device() : input.device());
  ACCEL_CHECK(weight.size(0) % groups == 0, op,
              "expected weight of size {} to have dim 0 divisible by groups = {}", weight.sizes(),
              groups);
  const int64_t in_channels = transposed ? weight.size(0) : weight.size(1) * groups;
  const int64_t out_channels = transposed ? weight.size(1) * groups : weight.size(0);
  const Tensor x = input.dim() == 5 ? input : input.unsqueeze(0);
  ACCEL_CHECK(x.size(1) == in_channels, op,
              "Given groups={}, weight of size {}, expected input{} to have {} channels, but got "
              "{} channels instead",
              groups, weight.sizes(), x.sizes(), in_channels, x.size(1));
  ACCEL_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == out_channels), op,
              "expected bias of shape [{}], got {}", out_channels, bias.sizes());
  return x;
}

}  // namespace

Tensor conv3d(const Tensor& input_in, const Tensor& weight_in, const Tensor& bias_in,
              const ConvSizes& stride_in, const ConvPadding& padding, const ConvSizes& dilation_in,
              int64_t groups) {
  constexpr const char* op = "conv3d";
  const Tensor input = autocast_input(input_in, CastPolicy::LowerPrecision);
  const Tensor weight = autocast_input(weight_in, CastPolicy::LowerPrecision);
  const Tensor bias = autocast_input(bias_in, CastPolicy::LowerPrecision);
  const Sizes3d stride = per_dim(stride_in.values, "stride", op);
  const Sizes3d dilation = per_dim(dilation_in.values, "dilation", op);
  const Tensor x = checked_batched_input(input, weight, bias, groups, false, op);
  // Padding before and after each dim: "same" puts the odd one of an even kernel after.
  Sizes3d pad_begin{}, pad_end{};
  if (padding.mode.empty()) {
    pad_begin = pad_end = per_dim(padding.values, "padding", op);
  } else {
    ACCEL_CHECK(padding.mode == "same" || padding.mode == "valid", op,
                "invalid padding string '{}', expected 'same' or 'valid'", padding.mode);
    if (padding.mode == "same") {
      ACCEL_CHECK(stride == (Sizes3d{1, 1, 1}), op,
                  "padding='same' is not supported for strided convolutions (stride {})", stride);
      for (size_t i = 0; i < 3; ++i) {
        const int64_t total = dilation[i] * (weight.size(static_cast<int64_t>(i) + 2) - 1);
        pad_begin[i] = total / 2;
        pad_end[i] = total - total / 2;
      }
    }
  }
  check_positive(stride, pad_begin, dilation, op);
  Sizes3d span{}, padded{};
  for (size_t i = 0; i < 3; ++i) {
    const auto dim = static_cast<int64_t>(i) + 2;
    span[i] = dilation[i] * (weight.size(dim) - 1) + 1;
    padded[i] = x.size(dim) + pad_begin[i] + pad_end[i];
  }
  ACCEL_CHECK(padded[0] >= span[0] && padded[1] >= span[1] && padded[2] >= span[2], op,
              "padded input size {} is smaller than the dilated kernel size {} (input {}, "
              "weight {})",
              padded, span, x.sizes(), weight.sizes());
  const int64_t batch = x.size(0), out_channels = weight.size(0), kernel_d = weight.size(2);
  const int64_t out_d = (padded[0] - span[0]) / stride[0] + 1;
  // [N, oD, C_in, kD, H, W]: each output depth's input window, one image of C_in * kD channels
  // whose groups of channels match the weight's.
  const Tensor windows = windows_along(
      x.transpose(1, 2), 1, {kernel_d, stride[0], pad_begin[0], dilation[0], out_d}, 0, 3);
  const Tensor images = windows.view({batch * out_d, x.size(1) * kernel_d, x.size(3), x.size(4)});
  const ConvPadding plane_padding =
      padding.mode.empty() ? ConvPadding({pad_begin[1], pad_begin[2]}) : padding;
  const Tensor planes =
      conv2d(images, weight.reshape({out_channels, -1, weight.size(3), weight.size(4)}), bias,
             {stride[1], stride[2]}, plane_padding, {dilation[1], dilation[2]}, groups);
  const Tensor out = planes.view({batch, out_d, out_channels, planes.size(2), planes.size(3)})
                         .transpose(1, 2)
                         .contiguous();
  return input.dim() == 5 ? out : out.squeeze(0);
}

Tensor conv_transpose3d(const Tensor& input_in, const Tensor& weight_in, const Tensor& bias_in,
                        const ConvSizes& stride_in, const ConvSizes& padding_in,
                        const ConvSizes& output_padding_in, int64_t groups,
                        const ConvSizes& dilation_in) {
  constexpr const char* op = "conv_transpose3d";
  const Tensor input = autocast_input(input_in, CastPolicy::LowerPrecision);
  const Tensor weight = autocast_input(weight_in, CastPolicy::LowerPrecision);
  const Tensor bias = autocast_input(bias_in, CastPolicy::LowerPrecision);
  const Sizes3d stride = per_dim(stride_in.values, "stride", op);
  const Sizes3d padding = per_dim(padding_in.values, "padding", op);
  const Sizes3d output_padding = per_dim(output_padding_in.values, "output_padding", op);
  const Sizes3d dilation = per_dim(dilation_in.values, "dilation", op);
  check_positive(stride, padding, dilation, op);
  const Tensor x = checked_batched_input(input, weight, bias, groups, true, op);
  Sizes3d out_size{};
  for (size_t i = 0; i < 3; ++i) {
    ACCEL_CHECK(output_padding[i] >= 0 &&
                    (output_padding[i] < stride[i] || output_padding[i] < dilation[i]),
                op,
                "output padding must be smaller than either stride or dilation, got "
                "output_padding {}, stride {}, dilation {}",
                output_padding, stride, dilation);
    const auto dim = static_cast<int64_t>(i) + 2;
    out_size[i] = (x.size(dim) - 1) * stride[i] - 2 * padding[i] +
                  dilation[i] * (weight.size(dim) - 1) + output_padding[i] + 1;
  }
  ACCEL_CHECK(out_size[0] > 0 && out_size[1] > 0 && out_size[2] > 0, op,
              "computed output size {} is too small (input {}, weight {})", out_size, x.sizes(),
              weight.sizes());
  const int64_t batch = x.size(0), in_d = x.size(2), kernel_d = weight.size(2);
  const int64_t out_channels = weight.size(1) * groups;
  // [N * D, C_out * kD, oH, oW]: output channel (c, k) of input plane j holds what it adds
  // through the weight's depth tap k to output channel c.
  const Tensor planes =
      conv_transpose2d(x.transpose(1, 2).reshape({batch * in_d, x.size(1), x.size(3), x.size(4)}),
                       weight.reshape({x.size(1), -1, weight.size(3), weight.size(4)}), {},
                       {stride[1], stride[2]}, {padding[1], padding[2]},
                       {output_padding[1], output_padding[2]}, groups, {dilation[1], dilation[2]});
  const int64_t out_h = planes.size(2), out_w = planes.size(3);
  // Tap k of input depth j lands on depth j * stride + k * dilation of the uncropped output:
  // fold's columns [N, C_out * oH * oW * kD, D] with a kD x 1 kernel do that sum.
  const int64_t full_d = (in_d - 1) * stride[0] + dilation[0] * (kernel_d - 1) + 1;
  const Tensor columns = planes.view({batch, in_d, out_channels, kernel_d, out_h * out_w})
                             .permute({0, 2, 4, 3, 1})
                             .reshape({batch, -1, in_d});
  const Tensor full = fold(columns, {full_d, 1}, {kernel_d, 1}, {dilation[0], 1}, 0, {stride[0], 1})
                          .view({batch, out_channels, out_h, out_w, full_d})
                          .permute({0, 1, 4, 2, 3});
  // Crop the padding from both ends; the output padding extends the end, with zeros where no
  // input reaches.
  Tensor out = pad(full, {0, 0, 0, 0, -padding[0], output_padding[0] - padding[0]});
  out = bias.defined() ? out + bias.view({1, out_channels, 1, 1, 1}) : out.contiguous();
  return input.dim() == 5 ? out : out.squeeze(0);
}

}  // namespace accel::nn::functional
