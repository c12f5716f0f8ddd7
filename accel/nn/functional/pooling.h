// Pooling in functional form (torch.nn.functional's pooling): the 2-D core ops of
// accel/core/pooling.h under their F:: names, the 1-D ones as those over a unit height, the 3-D
// ones as the 2-D ones over every depth plane followed by the same pooling across depth, and
// adaptive max pooling as per-window maxima whose gradient reaches the element each window
// picked (the first maximum in row-major order, as PyTorch).
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

// 3-D pooling over [N, C, D, H, W] or [C, D, H, W]: sizes are one value (every spatial dim) or
// three (d, h, w); an empty stride means the kernel size. The indices are flat within each
// volume, (d * H + h) * W + w.
std::pair<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                  IntArrayRef stride = {},
                                                  IntArrayRef padding = {0},
                                                  IntArrayRef dilation = {1},
                                                  bool ceil_mode = false);
Tensor max_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = {0}, IntArrayRef dilation = {1}, bool ceil_mode = false);
Tensor avg_pool3d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride = {},
                  IntArrayRef padding = {0}, bool ceil_mode = false, bool count_include_pad = true);
Tensor adaptive_avg_pool3d(const Tensor& input, IntArrayRef output_size);
std::pair<Tensor, Tensor> adaptive_max_pool3d_with_indices(const Tensor& input,
                                                           IntArrayRef output_size);
Tensor adaptive_max_pool3d(const Tensor& input, IntArrayRef output_size);

// The inverse of D-dimensional max pooling (D = 1, 2, 3): zeros of the unpooled size, each
// pooled value put back at its index (flat within its plane or volume, as max pooling gives
// them). The size is (in - 1) * stride - 2 * padding + kernel_size per dim unless output_size
// says otherwise (its last D values; within a stride of that). Sizes: one value or D.
Tensor max_unpool1d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride = {}, IntArrayRef padding = {0},
                    IntArrayRef output_size = {});
Tensor max_unpool2d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride = {}, IntArrayRef padding = {0},
                    IntArrayRef output_size = {});
Tensor max_unpool3d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride = {}, IntArrayRef padding = {0},
                    IntArrayRef output_size = {});

// Power-average pooling: (sum of x^p over each window)^(1/p), computed as PyTorch does, from
// average pooling of x^p (no padding). Sizes: one value or one per spatial dim.
Tensor lp_pool1d(const Tensor& input, double norm_type, IntArrayRef kernel_size,
                 IntArrayRef stride = {}, bool ceil_mode = false);
Tensor lp_pool2d(const Tensor& input, double norm_type, IntArrayRef kernel_size,
                 IntArrayRef stride = {}, bool ceil_mode = false);
Tensor lp_pool3d(const Tensor& input, double norm_type, IntArrayRef kernel_size,
                 IntArrayRef stride = {}, bool ceil_mode = false);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
