// Pooling in functional form (torch.nn.functional's pooling): the 2-D core ops of
// accel/core/pooling.h under their F:: names, the 1-D ones as those over a unit height, and
// adaptive max pooling (1-D and 2-D) as per-window maxima whose gradient reaches the element
// each window picked (the first maximum in row-major order, as PyTorch).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "accel/core/pooling.h"

namespace accel::nn::functional {

using ::accel::adaptive_avg_pool2d;
using ::accel::avg_pool2d;
using ::accel::max_pool2d;
using ::accel::max_pool2d_with_indices;

// The window sizes of a 1-D pooling over [N, C, L] or [C, L]; no stride means kernel_size.
struct Pool1dWindows {
  int64_t kernel_size;
  std::optional<int64_t> stride = std::nullopt;
  int64_t padding = 0;
  int64_t dilation = 1;  // max pooling only
  bool ceil_mode = false;
};

// The window maxima and, for each, the index along L of the element picked (int64).
std::pair<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input, const Pool1dWindows& w);
Tensor max_pool1d(const Tensor& input, const Pool1dWindows& w);
// The window means; count_include_pad divides by the window size including zero padding.
Tensor avg_pool1d(const Tensor& input, const Pool1dWindows& w, bool count_include_pad = true);
// Means over the windows [floor(i * L / out), ceil((i + 1) * L / out)).
Tensor adaptive_avg_pool1d(const Tensor& input, int64_t output_size);

// Maxima over the windows [floor(i * L / out), ceil((i + 1) * L / out)), with the index along
// L of each.
std::pair<Tensor, Tensor> adaptive_max_pool1d_with_indices(const Tensor& input,
                                                           int64_t output_size);
Tensor adaptive_max_pool1d(const Tensor& input, int64_t output_size);
// The same over [N, C, H, W] or [C, H, W], output_size one value (square) or two (h, w); the
// indices are flat, h * W + w, as max_pool2d's.
std::pair<Tensor, Tensor> adaptive_max_pool2d_with_indices(const Tensor& input,
                                                           IntArrayRef output_size);
Tensor adaptive_max_pool2d(const Tensor& input, IntArrayRef output_size);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
