// torch.nn.functional.interpolate: nearest, linear, bicubic and area resampling of the spatial
// dims of a [N, C, *spatial] tensor, as PyTorch computes them; nn::Upsample
// (nn/modules/upsample.h) wraps it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// Nearest: each output takes the input element at floor(position * scale); NearestExact at
// floor((position + 0.5) * scale) (both any of 1-3 spatial dims). Linear (3-D inputs), Bilinear
// (4-D) and Trilinear (5-D): weights of the two neighbours along each dim. Bicubic (4-D): Keys'
// cubic convolution (a = -0.75) over four neighbours along each dim, edges repeated. Area (1-3
// spatial dims): the average of each output's window, as adaptive average pooling.
enum class InterpolateMode { Nearest, NearestExact, Linear, Bilinear, Bicubic, Trilinear, Area };
// "nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area"
const char* mode_name(InterpolateMode mode);

struct InterpolateFuncOptions {
  // The output's spatial sizes: one for every spatial dim, or one for all of them.
  InterpolateFuncOptions& size(std::vector<int64_t> value) {
    size_ = std::move(value);
    return *this;
  }
  // Or factors for each spatial dim (or one for all): out = floor(in * factor), and positions
  // map back by 1 / factor, as PyTorch's default (recompute_scale_factor off).
  InterpolateFuncOptions& scale_factor(std::vector<double> value) {
    scale_factor_ = std::move(value);
    return *this;
  }
  InterpolateFuncOptions& mode(InterpolateMode value) {
    mode_ = value;
    return *this;
  }
  // Linear and bicubic modes only: true maps the corner elements of input and output onto each
  // other; false (the default) treats elements as areas, as PyTorch.
  InterpolateFuncOptions& align_corners(bool value) {
    align_corners_ = value;
    return *this;
  }
  std::optional<std::vector<int64_t>> size_;
  std::optional<std::vector<double>> scale_factor_;
  InterpolateMode mode_ = InterpolateMode::Nearest;
  std::optional<bool> align_corners_;
};

// Differentiable, on any device (built from index_select and arithmetic).
Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options);

}  // namespace accel::nn::functional
