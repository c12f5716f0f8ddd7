// grid_sample as taps: every output location reads a few input positions (1, 2 or 4 per axis
// for nearest, linear and cubic, every combination across the axes) with weights. The
// backend's grid_sample_taps computes them per location (kernels/common/grid_taps.h: PyTorch's
// coordinates, padding and gradient multipliers) and its tap_sample kernels do the per-channel
// work: the weighted sums, their adjoint into the input, and the grid's gradient through each
// weight's derivatives with respect to the location's grid components.
#include "accel/nn/functional/grid_sample.h"

#include <algorithm>
#include <limits>

#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/kernels/common/grid_taps.h"

namespace accel::nn::functional {
namespace {

constexpr const char* kOp = "grid_sample";

GridInterpolation interpolation_of(GridSampleMode mode) {
  switch (mode) {
    case GridSampleMode::Nearest:
      return GridInterpolation::Nearest;
    case GridSampleMode::Bicubic:
      return GridInterpolation::Cubic;
    case GridSampleMode::Bilinear:
      break;
  }
  return GridInterpolation::Linear;
}

GridPadding padding_of(GridSamplePaddingMode padding) {
  switch (padding) {
    case GridSamplePaddingMode::Border:
      return GridPadding::Border;
    case GridSamplePaddingMode::Reflection:
      return GridPadding::Reflection;
    case GridSamplePaddingMode::Zeros:
      break;
  }
  return GridPadding::Zeros;
}

// The taps of every location: the flat input position each reads (int32 [N, K, P], -1 where
// outside the input: the kernels read zero there), its weight (0 outside) and, when asked for,
// the weight's derivatives with respect to the location's grid components ([N, K, P, spatial]).
struct Taps {
  Tensor index;
  Tensor weight;
  Tensor weight_grad;
};

Taps grid_taps(const Tensor& grid, const GridTapsShape& s, bool with_weight_grad) {
  const Tensor flat_grid = grid.detach().reshape({s.batch, s.locations, s.spatial}).contiguous();
  const int64_t taps = grid_tap_count(s);
  Taps result{empty({s.batch, taps, s.locations}, grid.options().dtype(kInt32)),
              empty({s.batch, taps, s.locations}, grid.options()),
              {}};
  if (with_weight_grad) {
    result.weight_grad = empty({s.batch, taps, s.locations, s.spatial}, grid.options());
  }
  backend(grid.device())
      .grid_sample_taps(grid.dtype(), s, flat_grid.data_ptr(), result.index.data_ptr<int32_t>(),
                        result.weight.data_ptr(),
                        with_weight_grad ? result.weight_grad.data_ptr() : nullptr,
                        current_stream(grid.device()));
  return result;
}

TapShape tap_shape(const Tensor& flat_input, const Taps& taps) {
  return {flat_input.size(0), flat_input.size(1), taps.index.size(1), taps.index.size(2),
          flat_input.size(2)};
}

void check_grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& o) {
  ACCEL_CHECK(input.dim() == 4 || input.dim() == 5, kOp,
              "expected a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] input, got shape {}",
              input.sizes());
  const int64_t spatial = input.dim() - 2;
  ACCEL_CHECK(
      grid.dim() == input.dim() && grid.size(0) == input.size(0) && grid.size(-1) == spatial, kOp,
      "expected a grid of shape [{}, ..., {}] with {} dims for the input {}; got {}", input.size(0),
      spatial, input.dim(), input.sizes(), grid.sizes());
  ACCEL_CHECK(input.is_floating_point() && grid.dtype() == input.dtype(), kOp,
              "expected a floating point input and a grid of its dtype, got {} and {}",
              input.dtype(), grid.dtype());
  ACCEL_CHECK(grid.device() == input.device(), kOp,
              "expected the input and the grid on one device, got {} and {}", input.device(),
              grid.device());
  int64_t input_elements = 1;
  for (int64_t d = 2; d < input.dim(); ++d) {
    ACCEL_CHECK(input.size(d) > 0, kOp, "expected non-empty spatial dims, got input shape {}",
                input.sizes());
    input_elements *= input.size(d);
  }
  // The taps address a channel's elements with int32 positions.
  ACCEL_CHECK(input_elements <= std::numeric_limits<int32_t>::max(), kOp,
              "expected at most 2^31 - 1 elements per channel, got input shape {}", input.sizes());
  ACCEL_CHECK(o.mode() != GridSampleMode::Bicubic || input.dim() == 4, kOp,
              "bicubic interpolation takes 4-D inputs, got shape {}", input.sizes());
}

}  // namespace

Tensor grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& options) {
  check_grid_sample(input, grid, options);
  const int64_t n = input.size(0);
  const int64_t channels = input.size(1);
  const int64_t spatial = input.dim() - 2;
  GridTapsShape taps_shape{n,
                           grid.numel() / std::max<int64_t>(n * spatial, 1),
                           static_cast<int>(spatial),
                           {},
                           interpolation_of(options.mode()),
                           padding_of(options.padding_mode()),
                           options.align_corners()};
  int64_t input_elements = 1;
  for (int64_t d = 0; d < spatial; ++d) {
    taps_shape.sizes[d] = input.size(d + 2);
    input_elements *= input.size(d + 2);
  }
  DimVector out_sizes = {n, channels};
  for (int64_t d = 1; d < grid.dim() - 1; ++d) out_sizes.push_back(grid.size(d));

  const Tensor flat_input = input.reshape({n, channels, input_elements}).contiguous();
  const bool nearest = options.mode() == GridSampleMode::Nearest;
  const bool grid_gradient = !nearest && autograd::should_record(grid);
  Taps taps = grid_taps(grid, taps_shape, grid_gradient);
  const TapShape shape = tap_shape(flat_input, taps);
  Tensor out = empty(out_sizes, input.options());
  backend(input.device())
      .tap_sample(input.dtype(), shape, flat_input.data_ptr(), taps.index.data_ptr<int32_t>(),
                  taps.weight.data_ptr(), out.data_ptr(), current_stream(input.device()));
  if (autograd::should_record(input, grid)) {
    autograd::record(
        "grid_sample", {input, grid}, out,
        [taps = std::move(taps), saved_input = autograd::SavedTensor(flat_input), shape, nearest,
         spatial, input_sizes = DimVector(input.sizes()),
         grid_sizes = DimVector(grid.sizes())](const Tensor& grad, autograd::GradInputs& in) {
          const Tensor flat_grad = grad.contiguous();
          const Device device = grad.device();
          void* grad_input = nullptr;
          void* grad_grid = nullptr;
          if (in.needs(0)) {
            in[0] = empty(input_sizes, grad.options());
            grad_input = in[0].data_ptr();
          }
          if (in.needs(1) && nearest) {
            in[1] = zeros(grid_sizes, grad.options());  // the weights do not depend on the grid
          } else if (in.needs(1)) {
            in[1] = empty(grid_sizes, grad.options());
            grad_grid = in[1].data_ptr();
          }
          if (grad_input == nullptr && grad_grid == nullptr) return;
          backend(device).tap_sample_backward(
              grad.dtype(), shape, saved_input.get().data_ptr(), flat_grad.data_ptr(),
              taps.index.data_ptr<int32_t>(), taps.weight.data_ptr(), spatial,
              grad_grid == nullptr ? nullptr : taps.weight_grad.data_ptr(), grad_input, grad_grid,
              current_stream(device));
        });
  }
  return out;
}

Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners) {
  constexpr const char* op = "affine_grid";
  ACCEL_CHECK(size.size() == 4 || size.size() == 5, op,
              "expected the size of a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, got {}",
              size);
  const auto spatial = static_cast<int64_t>(size.size()) - 2;
  ACCEL_CHECK(theta.is_floating_point() && theta.dim() == 3 && theta.size(0) == size[0] &&
                  theta.size(1) == spatial && theta.size(2) == spatial + 1,
              op,
              "expected floating point affine matrices of shape [{}, {}, {}] for size {}; got {} "
              "of shape {}",
              size[0], spatial, spatial + 1, size, theta.dtype(), theta.sizes());
  for (int64_t d = 2; d < static_cast<int64_t>(size.size()); ++d) {
    ACCEL_CHECK(size[d] > 0, op, "expected positive spatial sizes, got {}", size);
  }
  // The base grid [*spatial, spatial + 1]: (x, y[, z], 1) at every location.
  DimVector spatial_sizes(size.begin() + 2, size.end());
  std::vector<Tensor> components;
  for (int64_t k = 0; k < spatial; ++k) {
    const int64_t dim = spatial - 1 - k;  // x runs along the last dim
    const int64_t steps = spatial_sizes[static_cast<size_t>(dim)];
    Tensor range =
        steps <= 1 ? zeros({1}, theta.options()) : linspace(-1, 1, steps, theta.options());
    if (steps > 1 && !align_corners)
      range = range * static_cast<double>(steps - 1) / static_cast<double>(steps);
    DimVector shape(static_cast<size_t>(spatial), 1);
    shape[static_cast<size_t>(dim)] = steps;
    components.push_back(range.view(shape).expand(spatial_sizes));
  }
  components.push_back(ones(spatial_sizes, theta.options()));
  const Tensor base = stack(components, spatial).reshape({1, -1, spatial + 1});
  DimVector grid_sizes = {size[0]};
  for (const int64_t s : spatial_sizes) grid_sizes.push_back(s);
  grid_sizes.push_back(spatial);
  return base.matmul(theta.transpose(1, 2)).view(grid_sizes);
}

}  // namespace accel::nn::functional
