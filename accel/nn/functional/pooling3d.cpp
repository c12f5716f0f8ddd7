// 3-D pooling composed of the 2-D poolings: each depth plane is pooled over height and width by
// the 2-D op, then the planes' results are pooled across depth — max of maxima, mean of means
// (the windows are boxes, so each divisor is the product of its per-dim counts, as in PyTorch).
// The maximum picked is the first in (d, h, w) order: the first plane holding the window's
// maximum, and the first position within that plane.
#include <array>
#include <limits>
#include <vector>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/adaptive_windows.h"
#include "accel/nn/functional/pooling.h"
#include "accel/nn/functional/windows_along.h"

namespace accel::nn::functional {

namespace {

using Sizes3d = std::array<int64_t, 3>;

void check_input(const Tensor& input, const char* op) {
  ACCEL_CHECK(input.dim() == 4 || input.dim() == 5, op,
              "expected a 4-D [C, D, H, W] or 5-D [N, C, D, H, W] input, got {}", input.sizes());
  ACCEL_CHECK(input.size(-4) > 0 && input.size(-3) > 0 && input.size(-2) > 0 && input.size(-1) > 0,
              op, "expected non-empty channel and spatial dims, got input {}", input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
}

Sizes3d per_dim(IntArrayRef values, const char* what, const char* op) {
  ACCEL_CHECK(values.size() == 1 || values.size() == 3, op, "{} must be one or three ints, got {}",
              what, values);
  return values.size() == 1 ? Sizes3d{values[0], values[0], values[0]}
                            : Sizes3d{values[0], values[1], values[2]};
}

// The windows of a fixed-size 3-D pooling, after PyTorch's checks, and the output size.
struct Windows3d {
  Sizes3d kernel, stride, padding, dilation, out;
};

Windows3d windows_3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const char* op) {
  check_input(input, op);
  Windows3d w{per_dim(kernel_size, "kernel_size", op),
              per_dim(stride.empty() ? kernel_size : stride, "stride", op),
              per_dim(padding, "padding", op),
              per_dim(dilation, "dilation", op),
              {}};
  for (size_t i = 0; i < 3; ++i) {
    ACCEL_CHECK(w.kernel[i] > 0 && w.stride[i] > 0 && w.dilation[i] > 0, op,
                "kernel_size, stride and dilation must be positive, got kernel_size {}, stride "
                "{}, dilation {}",
                w.kernel, w.stride, w.dilation);
    ACCEL_CHECK(w.padding[i] >= 0 && w.padding[i] <= w.kernel[i] / 2, op,
                "pad should be non-negative and at most half of kernel size, but got padding {} "
                "and kernel_size {}",
                w.padding, w.kernel);
    const int64_t size = input.size(static_cast<int64_t>(i) - 3);
    w.out[i] = pooled_size(size, w.kernel[i], w.stride[i], w.padding[i], w.dilation[i], ceil_mode);
  }
  ACCEL_CHECK(w.out[0] > 0 && w.out[1] > 0 && w.out[2] > 0, op,
              "given input size {}, the calculated output size {} is too small", input.sizes(),
              w.out);
  return w;
}

// The input as a batch of planes [B * D, H, W], B the product of the leading dims.
Tensor planes_of(const Tensor& input) {
  return input.reshape({-1, input.size(-2), input.size(-1)});
}

// The planes' results [B * D, oH, oW] as [B, D, oH, oW].
Tensor by_depth(const Tensor& plane_results, int64_t depth) {
  return plane_results.view({-1, depth, plane_results.size(-2), plane_results.size(-1)});
}

// A [B, oD, oH, oW] result with the input's leading dims.
Tensor with_leading_dims(const Tensor& result, const Tensor& input) {
  DimVector sizes(input.sizes());
  for (int64_t i = 1; i <= 3; ++i) sizes[sizes.size() - i] = result.size(-i);
  return result.reshape(sizes);
}

// 16-bit inputs are averaged in float32 and rounded once.
ScalarType compute_type(ScalarType t) { return t == kFloat16 || t == kBFloat16 ? kFloat32 : t; }

}  // namespace

std::pair<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                  IntArrayRef stride, IntArrayRef padding,
                                                  IntArrayRef dilation, bool ceil_mode) {
  const Windows3d w =
      windows_3d(input, kernel_size, stride, padding, dilation, ceil_mode, "max_pool3d");
  const int64_t depth = input.size(-3), height = input.size(-2), width = input.size(-1);
  auto [plane_max, plane_argmax] = max_pool2d_with_indices(
      planes_of(input), {w.kernel[1], w.kernel[2]}, {w.stride[1], w.stride[2]},
      {w.padding[1], w.padding[2]}, {w.dilation[1], w.dilation[2]}, ceil_mode);
  const WindowsAlong across_depth{w.kernel[0], w.stride[0], w.padding[0], w.dilation[0], w.out[0]};
  auto [values, tap] = max(windows_along(by_depth(plane_max, depth), 1, across_depth,
                                         -std::numeric_limits<double>::infinity(), 2),
                           2);
  // The plane each maximum came from (clamped: a window whose dilated taps all fall in the
  // padding holds -inf and no element), and its position within that plane.
  const Tensor window_start =
      arange(w.out[0], TensorOptions(kInt64).device(input.device())).view({1, -1, 1, 1}) *
          w.stride[0] -
      w.padding[0];
  const Tensor plane = (window_start + tap * w.dilation[0]).clamp(0, depth - 1);
  const Tensor in_plane = by_depth(plane_argmax, depth).gather(1, plane);
  return {with_leading_dims(values, input),
          with_leading_dims(plane * (height * width) + in_plane, input)};
}

Tensor max_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode).first;
}

Tensor avg_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  const Windows3d w = windows_3d(input, kernel_size, stride, padding, {1}, ceil_mode, "avg_pool3d");
  const int64_t depth = input.size(-3);
  const Tensor x = input.to(compute_type(input.dtype()));
  const Tensor plane_means =
      avg_pool2d(planes_of(x), {w.kernel[1], w.kernel[2]}, {w.stride[1], w.stride[2]},
                 {w.padding[1], w.padding[2]}, ceil_mode, count_include_pad);
  const Tensor sums = windows_along(by_depth(plane_means, depth), 1,
                                    {w.kernel[0], w.stride[0], w.padding[0], 1, w.out[0]}, 0, 2)
                          .sum(2);
  // Each depth window's divisor, PyTorch's: the window clipped to the padded input, or to the
  // input itself without count_include_pad.
  std::vector<double> divisors;
  for (int64_t i = 0; i < w.out[0]; ++i) {
    const int64_t start = i * w.stride[0] - w.padding[0];
    const int64_t end = std::min(start + w.kernel[0], depth + w.padding[0]);
    divisors.push_back(static_cast<double>(
        count_include_pad ? end - start : std::min(end, depth) - std::max<int64_t>(start, 0)));
  }
  const Tensor means = sums / tensor(divisors, x.options()).view({-1, 1, 1});
  return with_leading_dims(means, input).to(input.dtype());
}

Tensor adaptive_avg_pool3d(const Tensor& input, IntArrayRef output_size) {
  constexpr const char* op = "adaptive_avg_pool3d";
  check_input(input, op);
  const Sizes3d out = per_dim(output_size, "output_size", op);
  ACCEL_CHECK(out[0] > 0 && out[1] > 0 && out[2] > 0, op, "output_size must be positive, got {}",
              output_size);
  const Tensor x = input.to(compute_type(input.dtype()));
  const Tensor plane_means = adaptive_avg_pool2d(planes_of(x), {out[1], out[2]});
  return with_leading_dims(adaptive_means(by_depth(plane_means, input.size(-3)), 1, out[0]), input)
      .to(input.dtype());
}

std::pair<Tensor, Tensor> adaptive_max_pool3d_with_indices(const Tensor& input,
                                                           IntArrayRef output_size) {
  constexpr const char* op = "adaptive_max_pool3d";
  check_input(input, op);
  const Sizes3d out = per_dim(output_size, "output_size", op);
  ACCEL_CHECK(out[0] > 0 && out[1] > 0 && out[2] > 0, op, "output_size must be positive, got {}",
              output_size);
  // Row maxima over each column window, the maxima of those over each row window, then over each
  // depth window, each pass carrying the flat position its maxima came from.
  const WindowMaxima columns = adaptive_maxima(input, Tensor(), -1, out[2]);
  const WindowMaxima rows = adaptive_maxima(columns.values, columns.indices, -2, out[1]);
  const WindowMaxima planes =
      adaptive_maxima(rows.values, rows.indices * input.size(-1) + rows.carried, -3, out[0]);
  return {planes.values, planes.indices * (input.size(-2) * input.size(-1)) + planes.carried};
}

Tensor adaptive_max_pool3d(const Tensor& input, IntArrayRef output_size) {
  return adaptive_max_pool3d_with_indices(input, output_size).first;
}

}  // namespace accel::nn::functional
