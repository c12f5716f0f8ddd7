// grid_sample as taps: along each spatial axis every output location reads a few input indices
// (1 for nearest, 2 for linear, 4 for cubic) with weights; the taps of all axes combine into
// flat input positions and weights ([N, K, P], computed by tensor ops on the grid's device),
// and the backend's tap_sample kernels do the per-channel work: the weighted sums, their adjoint
// into the input, and the weights' gradient, which the chain rule through each axis's weight
// derivatives turns into the grid's. The coordinates follow PyTorch's CPU kernel (unnormalize,
// reflect, clip, in that order, with its gradient multipliers: clipped or border coordinates
// pass none).
#include "accel/nn/functional/grid_sample.h"

#include <array>
#include <cmath>
#include <vector>

#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {
namespace {

constexpr const char* kOp = "grid_sample";
constexpr double kCubicA = -0.75;

// A coordinate in input elements and its derivative with respect to the grid value.
struct Location {
  Tensor coord;
  Tensor grad;
};

// [-1, 1] onto element positions: the corner centers (align_corners) or the corner edges.
Location unnormalize(const Tensor& g, int64_t size, bool align_corners) {
  const double scale =
      align_corners ? static_cast<double>(size - 1) / 2 : static_cast<double>(size) / 2;
  Tensor coord = (g + 1) * scale;
  if (!align_corners) coord = coord - 0.5;
  return {coord, full_like(g, scale)};
}

// Clipped to [0, size - 1]; the derivative is 1 strictly inside and 0 at or beyond the borders.
Location clip(const Location& at, int64_t size) {
  const auto max = static_cast<double>(size - 1);
  const Tensor above_low = at.coord.gt(0);
  const Tensor low_clipped = where(above_low, at.coord, 0.0);
  const Tensor below_high = low_clipped.lt(max);
  const Tensor inside = logical_and(above_low, below_high);
  return {where(below_high, low_clipped, max), where(inside, at.grad, 0.0)};
}

// Mirrored at the edges until inside: [0, size - 1] (align_corners) or [-0.5, size - 0.5]; the
// derivative's sign flips with each reflection. A single element reflects everything onto 0.
Location reflect(const Location& at, int64_t size, bool align_corners) {
  if (align_corners && size <= 1) return {zeros_like(at.coord), zeros_like(at.grad)};
  const double low = align_corners ? 0.0 : -0.5;
  const auto twice_span = static_cast<double>(align_corners ? 2 * (size - 1) : 2 * size);
  const Tensor shifted = at.coord - low;
  const Tensor negative = shifted.lt(0);
  const Tensor distance = shifted.abs();
  const Tensor extra = distance - trunc(distance / twice_span) * twice_span;
  const Tensor reflected = twice_span - extra;
  const Tensor one_more_flip = extra.gt(reflected);
  const Tensor flipped = one_more_flip.ne(negative);
  return {where(one_more_flip, reflected, extra) + low, where(flipped, -at.grad, at.grad)};
}

// A location moved inside the input by the padding mode (none for zeros).
Location pad(Location at, int64_t size, GridSamplePaddingMode padding, bool align_corners) {
  if (padding == GridSamplePaddingMode::Reflection) at = reflect(at, size, align_corners);
  if (padding != GridSamplePaddingMode::Zeros) at = clip(at, size);
  return at;
}

// The taps of one axis: for every output location, the input position each reads (integral
// values), its weight and the weight's derivative with respect to the grid value.
struct AxisTaps {
  std::vector<Tensor> position;
  std::vector<Tensor> weight;
  std::vector<Tensor> weight_grad;
};

AxisTaps nearest_taps(const Location& at) {
  return {{round(at.coord)}, {ones_like(at.coord)}, {zeros_like(at.coord)}};
}

AxisTaps linear_taps(const Location& at) {
  const Tensor below = floor(at.coord);
  const Tensor upper_weight = at.coord - below;
  return {{below, below + 1}, {1 - upper_weight, upper_weight}, {-at.grad, at.grad}};
}

// Keys' kernel and its derivative for |x| <= 1 (near) and 1 < |x| < 2 (far).
Tensor cubic_near(const Tensor& x) { return ((kCubicA + 2) * x - (kCubicA + 3)) * x * x + 1; }
Tensor cubic_far(const Tensor& x) {
  return ((kCubicA * x - 5 * kCubicA) * x + 8 * kCubicA) * x - 4 * kCubicA;
}
Tensor cubic_near_slope(const Tensor& x) { return (3 * (kCubicA + 2) * x - 2 * (kCubicA + 3)) * x; }
Tensor cubic_far_slope(const Tensor& x) {
  return (3 * kCubicA * x - 10 * kCubicA) * x + 8 * kCubicA;
}

// Positions floor(x) - 1 .. floor(x) + 2 of the unpadded coordinate, each padded on its own.
AxisTaps cubic_taps(const Location& at, int64_t size, GridSamplePaddingMode padding,
                    bool align_corners) {
  const Tensor below = floor(at.coord);
  const Tensor t = at.coord - below;
  AxisTaps taps;
  for (int64_t k = 0; k < 4; ++k) {
    const Tensor position = below + static_cast<double>(k - 1);
    taps.position.push_back(pad({position, at.grad}, size, padding, align_corners).coord);
  }
  taps.weight = {cubic_far(t + 1), cubic_near(t), cubic_near(1 - t), cubic_far(2 - t)};
  taps.weight_grad = {cubic_far_slope(t + 1) * at.grad, cubic_near_slope(t) * at.grad,
                      -cubic_near_slope(1 - t) * at.grad, -cubic_far_slope(2 - t) * at.grad};
  return taps;
}

AxisTaps axis_taps(const Tensor& g, int64_t size, const GridSampleFuncOptions& o) {
  const Location unnormalized = unnormalize(g, size, o.align_corners());
  if (o.mode() == GridSampleMode::Bicubic) {
    return cubic_taps(unnormalized, size, o.padding_mode(), o.align_corners());
  }
  const Location at = pad(unnormalized, size, o.padding_mode(), o.align_corners());
  return o.mode() == GridSampleMode::Nearest ? nearest_taps(at) : linear_taps(at);
}

// The taps of all axes combined, stacked over the combinations k: the flat input position
// each reads (int64 [N, K, P], -1 where outside the input: the kernels read zero there), its
// weight (0 outside) and the weight's derivative along each axis (in the input's dim order).
struct Taps {
  Tensor index;
  Tensor weight;
  std::vector<Tensor> weight_grad;
};

// Advances the choice of a tap per axis like an odometer (the last axis fastest); false after
// the last combination.
bool next_choice(std::vector<size_t>& pick, const std::vector<AxisTaps>& axes) {
  for (size_t a = axes.size(); a-- > 0;) {
    if (++pick[a] < axes[a].position.size()) return true;
    pick[a] = 0;
  }
  return false;
}

// One combination: a tap picked on every axis.
struct Combination {
  Tensor index;
  Tensor weight;
  std::vector<Tensor> weight_grad;
};

Combination combine_one(const std::vector<AxisTaps>& axes, const std::vector<size_t>& pick,
                        const std::vector<int64_t>& sizes) {
  Tensor inside;
  Tensor index;
  int64_t stride = 1;
  for (size_t a = axes.size(); a-- > 0;) {
    const Tensor& position = axes[a].position[pick[a]];
    const Tensor in_bounds =
        logical_and(position.ge(0), position.lt(static_cast<double>(sizes[a])));
    inside = inside.defined() ? logical_and(inside, in_bounds) : in_bounds;
    const Tensor term = where(in_bounds, position, 0.0).to(kInt64) * stride;
    index = index.defined() ? index + term : term;
    stride *= sizes[a];
  }
  // The weight multiplies the axes' weights in dim order; its derivative along an axis puts
  // that axis's weight derivative in place of its weight.
  const auto product = [&](size_t differentiated) {
    Tensor result;
    for (size_t a = 0; a < axes.size(); ++a) {
      const Tensor& factor =
          a == differentiated ? axes[a].weight_grad[pick[a]] : axes[a].weight[pick[a]];
      result = result.defined() ? result * factor : factor;
    }
    return where(inside, result, 0.0);
  };
  Combination combination{where(inside, index, -1), product(axes.size()), {}};
  for (size_t a = 0; a < axes.size(); ++a) combination.weight_grad.push_back(product(a));
  return combination;
}

Taps combine(const std::vector<AxisTaps>& axes, const std::vector<int64_t>& sizes) {
  std::vector<Tensor> index, weight;
  std::vector<std::vector<Tensor>> weight_grad(axes.size());
  std::vector<size_t> pick(axes.size(), 0);
  do {
    Combination c = combine_one(axes, pick, sizes);
    index.push_back(c.index);
    weight.push_back(c.weight);
    for (size_t a = 0; a < axes.size(); ++a) weight_grad[a].push_back(c.weight_grad[a]);
  } while (next_choice(pick, axes));
  Taps taps{stack(index, 1), stack(weight, 1), {}};
  for (const std::vector<Tensor>& along_axis : weight_grad) {
    taps.weight_grad.push_back(stack(along_axis, 1));
  }
  return taps;
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
  for (int64_t d = 2; d < input.dim(); ++d) {
    ACCEL_CHECK(input.size(d) > 0, kOp, "expected non-empty spatial dims, got input shape {}",
                input.sizes());
  }
  ACCEL_CHECK(o.mode() != GridSampleMode::Bicubic || input.dim() == 4, kOp,
              "bicubic interpolation takes 4-D inputs, got shape {}", input.sizes());
}

}  // namespace

Tensor grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& options) {
  check_grid_sample(input, grid, options);
  const int64_t n = input.size(0);
  const int64_t channels = input.size(1);
  const int64_t spatial = input.dim() - 2;
  std::vector<int64_t> sizes;
  int64_t input_elements = 1;
  for (int64_t d = 2; d < input.dim(); ++d) {
    sizes.push_back(input.size(d));
    input_elements *= input.size(d);
  }
  DimVector out_sizes = {n, channels};
  for (int64_t d = 1; d < grid.dim() - 1; ++d) out_sizes.push_back(grid.size(d));
  const int64_t locations = grid.numel() / std::max<int64_t>(n * spatial, 1);

  const Tensor flat_input = input.reshape({n, channels, input_elements}).contiguous();
  Taps taps;
  {
    NoGradGuard no_grad;
    // The grid's component k is the coordinate along input dim 1 + spatial - k (x is the width).
    const Tensor flat_grid = grid.reshape({n, locations, spatial});
    std::vector<AxisTaps> axes;
    for (int64_t a = 0; a < spatial; ++a) {
      axes.push_back(
          axis_taps(flat_grid.select(2, spatial - 1 - a), sizes[static_cast<size_t>(a)], options));
    }
    taps = combine(axes, sizes);
  }
  const TapShape shape = tap_shape(flat_input, taps);
  Tensor out = empty(out_sizes, input.options());
  backend(input.device())
      .tap_sample(input.dtype(), shape, flat_input.data_ptr(), taps.index.data_ptr<int64_t>(),
                  taps.weight.data_ptr(), out.data_ptr(), current_stream(input.device()));
  if (autograd::should_record(input, grid)) {
    const bool nearest = options.mode() == GridSampleMode::Nearest;
    autograd::record(
        "grid_sample", {input, grid}, out,
        [taps = std::move(taps), saved_input = autograd::SavedTensor(flat_input), shape, nearest,
         input_sizes = DimVector(input.sizes()),
         grid_sizes = DimVector(grid.sizes())](const Tensor& grad, autograd::GradInputs& in) {
          const Tensor flat_grad = grad.contiguous();
          const Device device = grad.device();
          if (in.needs(0)) {
            Tensor grad_input = empty(input_sizes, grad.options());
            backend(device).tap_sample_backward_input(
                grad.dtype(), shape, flat_grad.data_ptr(), taps.index.data_ptr<int64_t>(),
                taps.weight.data_ptr(), grad_input.data_ptr(), current_stream(device));
            in[0] = grad_input;
          }
          if (in.needs(1)) {
            if (nearest) {
              in[1] = zeros(grid_sizes, grad.options());
              return;
            }
            // d out / d weight, then the chain rule through each axis's weight derivatives.
            Tensor grad_weight = empty(taps.weight.sizes(), grad.options());
            backend(device).tap_sample_backward_weight(
                grad.dtype(), shape, saved_input.get().data_ptr(), taps.index.data_ptr<int64_t>(),
                flat_grad.data_ptr(), grad_weight.data_ptr(), current_stream(device));
            std::vector<Tensor> components;  // x first: the last input dim's axis
            for (auto it = taps.weight_grad.rbegin(); it != taps.weight_grad.rend(); ++it) {
              components.push_back((grad_weight * *it).sum(1));
            }
            in[1] = stack(components, 2).view(grid_sizes);
          }
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
