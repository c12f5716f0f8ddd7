// torch.nn.functional's grid_sample and affine_grid. grid_sample reads a [N, C, H, W] (or
// [N, C, D, H, W]) input at the locations a grid gives for every output element, in normalized
// coordinates (-1 and 1 are the input's edges), interpolating between input elements;
// affine_grid builds the grid of a batch of affine transforms, so that the two make a spatial
// transformer.
#pragma once

#include "accel/base/int_array_ref.h"
#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

// Bilinear (trilinear for 5-D inputs): the weighted 2 (or 2 x 2 x 2) neighbours. Nearest: the
// nearest element (halves round to even); the grid gets a zero gradient. Bicubic (4-D inputs):
// Keys' cubic convolution (a = -0.75) over 4 x 4 neighbours.
enum class GridSampleMode { Bilinear, Nearest, Bicubic };
// What locations outside the input read. Zeros: zero. Border: the nearest edge element.
// Reflection: the input mirrored at its edges (the locations reflected until inside).
enum class GridSamplePaddingMode { Zeros, Border, Reflection };

struct GridSampleFuncOptions {
  ACCEL_ARG(GridSampleMode, mode) = GridSampleMode::Bilinear;
  ACCEL_ARG(GridSamplePaddingMode, padding_mode) = GridSamplePaddingMode::Zeros;
  // true: -1 and 1 are the centers of the corner elements; false (PyTorch's default): their
  // outer edges, so the result does not depend on the input's resolution.
  ACCEL_ARG(bool, align_corners) = false;
};

// input [N, C, H_in, W_in] and grid [N, H_out, W_out, 2] (x, y) give [N, C, H_out, W_out];
// 5-D: input [N, C, D_in, H_in, W_in], grid [N, D_out, H_out, W_out, 3] (x, y, z). Both of one
// floating dtype and device; differentiable with respect to both, with PyTorch's gradients.
Tensor grid_sample(const Tensor& input, const Tensor& grid,
                   const GridSampleFuncOptions& options = {});

// The sampling grid of affine transforms theta ([N, 2, 3] for size [N, C, H, W], [N, 3, 4] for
// [N, C, D, H, W]): grid[n, h, w] = theta[n] @ (x_w, y_h, 1), with x and y spread over [-1, 1]
// as align_corners places the element centers. Differentiable with respect to theta.
Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners = false);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
