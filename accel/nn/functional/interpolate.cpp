// interpolate, one spatial dim at a time: every mode reads, for each output position, a few input
// positions along the dim ("taps") and sums them with weights that broadcast along it — one tap
// of weight 1 for nearest (a plain index_select), two for linear, four for bicubic, a window for
// area (4-D area inputs go to adaptive_avg_pool2d). The source positions follow PyTorch's formulas,
// including its float arithmetic for nearest, so the same elements are chosen.
#include "accel/nn/functional/interpolate.h"

#include <algorithm>
#include <cmath>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/pooling.h"

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

// One term of a resampling along a dim: output position j reads input index[j], times weight[j].
struct Tap {
  std::vector<int64_t> index;
  std::vector<double> weight;
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

// The input element each output position takes: PyTorch computes nearest's in float, at
// floor(j * scale), or floor((j + 0.5) * scale) for nearest-exact.
Tap nearest_tap(const DimPlan& p, bool exact) {
  Tap tap;
  const auto scale = static_cast<float>(p.scale);
  const float offset = exact ? 0.5f : 0.f;
  for (int64_t j = 0; j < p.out; ++j) {
    const auto source = static_cast<int64_t>(std::floor((static_cast<float>(j) + offset) * scale));
    tap.index.push_back(std::min(source, p.in - 1));
    tap.weight.push_back(1.0);
  }
  return tap;
}

// Where output position j lies on the input's axis: with align_corners the first and last
// elements of both meet; otherwise elements are areas (PyTorch's area_pixel_compute_source_index,
// clamped at 0 for linear, not for cubic).
double source_position(const DimPlan& p, int64_t j, bool align_corners, bool cubic) {
  const auto position = static_cast<double>(j);
  if (align_corners) {
    return p.out > 1 ? position * static_cast<double>(p.in - 1) / static_cast<double>(p.out - 1)
                     : 0.0;
  }
  const double source = (position + 0.5) * p.scale - 0.5;
  return cubic ? source : std::max(0.0, source);
}

// The two neighbours of each output position and their weights.
std::vector<Tap> linear_taps(const DimPlan& p, bool align_corners) {
  std::vector<Tap> taps(2);
  for (int64_t j = 0; j < p.out; ++j) {
    const double source = source_position(p, j, align_corners, false);
    const auto below = std::min(static_cast<int64_t>(source), p.in - 1);
    const double upper_weight = source - static_cast<double>(below);
    taps[0].index.push_back(below);
    taps[0].weight.push_back(1.0 - upper_weight);
    taps[1].index.push_back(below < p.in - 1 ? below + 1 : below);
    taps[1].weight.push_back(upper_weight);
  }
  return taps;
}

// Keys' cubic convolution kernel with a = -0.75, as PyTorch's bicubic: for |x| <= 1 and for
// 1 < |x| < 2.
constexpr double kCubicA = -0.75;
double cubic_near(double x) { return ((kCubicA + 2) * x - (kCubicA + 3)) * x * x + 1; }
double cubic_far(double x) {
  return ((kCubicA * x - 5 * kCubicA) * x + 8 * kCubicA) * x - 4 * kCubicA;
}

// The four neighbours floor(source) - 1 .. floor(source) + 2 (clamped to the edges) and their
// cubic weights.
std::vector<Tap> cubic_taps(const DimPlan& p, bool align_corners) {
  std::vector<Tap> taps(4);
  for (int64_t j = 0; j < p.out; ++j) {
    const double source = source_position(p, j, align_corners, true);
    const double floor_source = std::floor(source);
    const double t = source - floor_source;
    const double weights[4] = {cubic_far(t + 1), cubic_near(t), cubic_near(1 - t),
                               cubic_far(2 - t)};
    for (int64_t k = 0; k < 4; ++k) {
      const int64_t index = static_cast<int64_t>(floor_source) - 1 + k;
      taps[static_cast<size_t>(k)].index.push_back(std::clamp<int64_t>(index, 0, p.in - 1));
      taps[static_cast<size_t>(k)].weight.push_back(weights[k]);
    }
  }
  return taps;
}

// Output position j averages input window [floor(j·in/out), ceil((j+1)·in/out)), as adaptive
// average pooling: tap k reads the window's k-th element, weight 0 past a shorter window's end.
std::vector<Tap> area_taps(const DimPlan& p) {
  const auto window = [&](int64_t j) {
    return std::pair{j * p.in / p.out, ((j + 1) * p.in + p.out - 1) / p.out};
  };
  int64_t widest = 0;
  for (int64_t j = 0; j < p.out; ++j) widest = std::max(widest, window(j).second - window(j).first);
  std::vector<Tap> taps(static_cast<size_t>(widest));
  for (int64_t j = 0; j < p.out; ++j) {
    const auto [begin, end] = window(j);
    for (int64_t k = 0; k < widest; ++k) {
      Tap& tap = taps[static_cast<size_t>(k)];
      tap.index.push_back(std::min(begin + k, end - 1));
      tap.weight.push_back(begin + k < end ? 1.0 / static_cast<double>(end - begin) : 0.0);
    }
  }
  return taps;
}

bool is_identity(const std::vector<Tap>& taps, int64_t in) {
  if (taps.size() != 1 || static_cast<int64_t>(taps[0].index.size()) != in) return false;
  for (size_t j = 0; j < taps[0].index.size(); ++j) {
    if (taps[0].index[j] != static_cast<int64_t>(j) || taps[0].weight[j] != 1.0) return false;
  }
  return true;
}

// sum over taps of x's elements at tap.index along dim times tap.weight (broadcast along dim);
// a single tap of weight 1 is a plain selection.
Tensor blend_along(const Tensor& x, int64_t dim, const std::vector<Tap>& taps) {
  DimVector weight_shape(static_cast<size_t>(x.dim() - dim), 1);
  weight_shape[0] = static_cast<int64_t>(taps[0].index.size());
  Tensor sum;
  for (const Tap& tap : taps) {
    Tensor term = x.index_select(dim, tensor(tap.index).to(x.device()));
    const bool unit =
        std::all_of(tap.weight.begin(), tap.weight.end(), [](double w) { return w == 1.0; });
    if (!unit) term = term * tensor(tap.weight).to(x.options()).view(weight_shape);
    sum = sum.defined() ? sum + term : term;
  }
  return sum;
}

// The spatial dims a mode takes (0: any of 1-3) and whether it blends (needs floating point).
struct ModeRules {
  int64_t spatial_dims;
  bool blends;
  bool takes_align_corners;
};

ModeRules rules_of(InterpolateMode mode) {
  switch (mode) {
    case InterpolateMode::Nearest:
    case InterpolateMode::NearestExact:
      return {0, false, false};
    case InterpolateMode::Area:
      return {0, true, false};
    case InterpolateMode::Linear:
      return {1, true, true};
    case InterpolateMode::Bilinear:
    case InterpolateMode::Bicubic:
      return {2, true, true};
    case InterpolateMode::Trilinear:
      return {3, true, true};
  }
  return {0, false, false};
}

std::vector<Tap> taps_for(InterpolateMode mode, const DimPlan& p, bool align_corners) {
  switch (mode) {
    case InterpolateMode::Nearest:
    case InterpolateMode::NearestExact:
      return {nearest_tap(p, mode == InterpolateMode::NearestExact)};
    case InterpolateMode::Area:
      return area_taps(p);
    case InterpolateMode::Bicubic:
      return cubic_taps(p, align_corners);
    case InterpolateMode::Linear:
    case InterpolateMode::Bilinear:
    case InterpolateMode::Trilinear:
      return linear_taps(p, align_corners);
  }
  return {};
}

}  // namespace

const char* mode_name(InterpolateMode mode) {
  switch (mode) {
    case InterpolateMode::Nearest:
      return "nearest";
    case InterpolateMode::NearestExact:
      return "nearest-exact";
    case InterpolateMode::Linear:
      return "linear";
    case InterpolateMode::Bilinear:
      return "bilinear";
    case InterpolateMode::Bicubic:
      return "bicubic";
    case InterpolateMode::Trilinear:
      return "trilinear";
    case InterpolateMode::Area:
      return "area";
  }
  return "?";
}

Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options) {
  ACCEL_CHECK(input.defined(), kOp, "the tensor is undefined");
  const InterpolateMode mode = options.mode_;
  const ModeRules rules = rules_of(mode);
  if (rules.spatial_dims == 0) {
    ACCEL_CHECK(input.dim() >= 3 && input.dim() <= 5, kOp,
                "{} takes a 3-D, 4-D or 5-D input [N, C, *spatial], got {}", mode_name(mode),
                input.sizes());
  } else {
    ACCEL_CHECK(input.dim() == rules.spatial_dims + 2, kOp,
                "{} takes a {}-D input [N, C, *spatial], got {}", mode_name(mode),
                rules.spatial_dims + 2, input.sizes());
  }
  ACCEL_CHECK(rules.takes_align_corners || !options.align_corners_, kOp,
              "align_corners can only be set with the linear, bilinear, bicubic and trilinear "
              "modes, not {}",
              mode_name(mode));
  ACCEL_CHECK(!rules.blends || input.is_floating_point(), kOp,
              "{} needs a floating point input, got {}", mode_name(mode), input.dtype());
  const std::vector<DimPlan> plans = plan_dims(input, options);
  if (mode == InterpolateMode::Area && input.dim() == 4) {
    return adaptive_avg_pool2d(input, {plans[0].out, plans[1].out});  // a kernel of its own
  }
  Tensor out = input;
  for (size_t i = 0; i < plans.size(); ++i) {
    const std::vector<Tap> taps = taps_for(mode, plans[i], options.align_corners_.value_or(false));
    if (!is_identity(taps, plans[i].in)) out = blend_along(out, static_cast<int64_t>(i) + 2, taps);
  }
  return out;
}

}  // namespace accel::nn::functional
