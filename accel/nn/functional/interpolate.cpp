// interpolate, one spatial dim at a time: nearest selects one source element per output
// position, linear blends the two neighbours with weights that broadcast along the dim. The
// source positions follow PyTorch's formulas, including its float arithmetic for nearest, so
// the same elements are chosen.
#include "accel/nn/functional/interpolate.h"

#include <algorithm>
#include <cmath>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

namespace {

constexpr const char* kOp = "interpolate";

// Per spatial dim: the output size and the scale mapping output positions back to input ones
// (input / output, or 1 / scale_factor when one is given).
struct DimPlan {
  int64_t in;
  int64_t out;
  double scale;
};

template <typename T>
T value_for(const std::vector<T>& values, size_t i) {
  return values.size() == 1 ? values[0] : values[i];
}

std::vector<DimPlan> plan_dims(const Tensor& input, const InterpolateFuncOptions& o) {
  const size_t spatial = static_cast<size_t>(input.dim() - 2);
  ACCEL_CHECK(o.size_.has_value() != o.scale_factor_.has_value(), kOp,
              "give exactly one of size and scale_factor");
  const size_t given = o.size_ ? o.size_->size() : o.scale_factor_->size();
  ACCEL_CHECK(given == 1 || given == spatial, kOp,
              "the input {} has {} spatial dims but {} {} were given", input.sizes(), spatial,
              given, o.size_ ? "sizes" : "scale factors");
  std::vector<DimPlan> plans;
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = input.size(static_cast<int64_t>(i) + 2);
    if (o.size_) {
      const int64_t out = value_for(*o.size_, i);
      ACCEL_CHECK(out > 0, kOp, "output sizes must be positive, got {}", *o.size_);
      plans.push_back({in, out, static_cast<double>(in) / static_cast<double>(out)});
    } else {
      const double factor = value_for(*o.scale_factor_, i);
      ACCEL_CHECK(factor > 0 && std::isfinite(factor), kOp,
                  "scale factors must be positive, got {}", *o.scale_factor_);
      const auto out = static_cast<int64_t>(std::floor(static_cast<double>(in) * factor));
      ACCEL_CHECK(out > 0, kOp, "scale factor {} makes dimension {} of size {} empty", factor,
                  i + 2, in);
      plans.push_back({in, out, 1.0 / factor});
    }
  }
  return plans;
}

// The input position of each output position: PyTorch computes nearest's in float.
Tensor nearest_sources(const DimPlan& p, Device device) {
  std::vector<int64_t> sources;
  const auto scale = static_cast<float>(p.scale);
  for (int64_t j = 0; j < p.out; ++j) {
    const auto source = static_cast<int64_t>(std::floor(static_cast<float>(j) * scale));
    sources.push_back(std::min(source, p.in - 1));
  }
  return tensor(sources).to(device);
}

// Blends the two neighbours of each output position along `dim`.
Tensor linear_along(const Tensor& x, int64_t dim, const DimPlan& p, bool align_corners) {
  std::vector<int64_t> lower, upper;
  std::vector<double> upper_weight;
  const double scale =
      align_corners
          ? (p.out > 1 ? static_cast<double>(p.in - 1) / static_cast<double>(p.out - 1) : 0.0)
          : p.scale;
  for (int64_t j = 0; j < p.out; ++j) {
    const double source = align_corners
                              ? static_cast<double>(j) * scale
                              : std::max(0.0, (static_cast<double>(j) + 0.5) * scale - 0.5);
    const auto below = std::min(static_cast<int64_t>(source), p.in - 1);
    lower.push_back(below);
    upper.push_back(below < p.in - 1 ? below + 1 : below);
    upper_weight.push_back(source - static_cast<double>(below));
  }
  DimVector weight_shape(static_cast<size_t>(x.dim() - dim), 1);
  weight_shape[0] = p.out;
  const Tensor w1 = tensor(upper_weight).to(x.options()).view(weight_shape);
  const Tensor below = x.index_select(dim, tensor(lower).to(x.device()));
  const Tensor above = x.index_select(dim, tensor(upper).to(x.device()));
  return below * (1 - w1) + above * w1;
}

}  // namespace

const char* mode_name(InterpolateMode mode) {
  switch (mode) {
    case InterpolateMode::Nearest:
      return "nearest";
    case InterpolateMode::Linear:
      return "linear";
    case InterpolateMode::Bilinear:
      return "bilinear";
  }
  return "?";
}

Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options) {
  ACCEL_CHECK(input.defined(), kOp, "the tensor is undefined");
  const InterpolateMode mode = options.mode_;
  const int64_t wanted_dims = mode == InterpolateMode::Linear ? 3 : 4;
  if (mode == InterpolateMode::Nearest) {
    ACCEL_CHECK(input.dim() >= 3 && input.dim() <= 5, kOp,
                "nearest takes a 3-D, 4-D or 5-D input [N, C, *spatial], got {}", input.sizes());
    ACCEL_CHECK(!options.align_corners_, kOp,
                "align_corners can only be set with the linear modes, not nearest");
  } else {
    ACCEL_CHECK(input.dim() == wanted_dims, kOp, "{} takes a {}-D input [N, C, *spatial], got {}",
                mode_name(mode), wanted_dims, input.sizes());
    ACCEL_CHECK(input.is_floating_point(), kOp, "{} needs a floating point input, got {}",
                mode_name(mode), input.dtype());
  }
  const std::vector<DimPlan> plans = plan_dims(input, options);
  Tensor out = input;
  for (size_t i = 0; i < plans.size(); ++i) {
    const int64_t dim = static_cast<int64_t>(i) + 2;
    if (plans[i].in == plans[i].out && mode == InterpolateMode::Nearest) continue;
    out = mode == InterpolateMode::Nearest
              ? out.index_select(dim, nearest_sources(plans[i], input.device()))
              : linear_along(out, dim, plans[i], options.align_corners_.value_or(false));
  }
  return out;
}

}  // namespace accel::nn::functional
