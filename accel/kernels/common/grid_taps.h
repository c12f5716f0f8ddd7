// grid_sample's taps, written once for the CPU loop and the CUDA kernel: for one grid location,
// the flat input positions it reads, their weights and the weights' derivatives with respect
// to the location's grid components. The coordinates follow PyTorch's kernels (unnormalize,
// reflect, clip, in that order, with its gradient multipliers: clipped or border coordinates
// pass none); bicubic pads each of its four positions per axis on its own.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/base/macros.h"
#include "accel/kernels/common/tap_shape.h"

namespace accel {

constexpr ACCEL_HOST_DEVICE int grid_taps_per_axis(GridInterpolation interpolation) {
  return interpolation == GridInterpolation::Nearest  ? 1
         : interpolation == GridInterpolation::Linear ? 2
                                                      : 4;
}

// Taps per location: every combination of one tap per axis.
ACCEL_INLINE int grid_tap_count(const GridTapsShape& s) {
  int taps = 1;
  for (int a = 0; a < s.spatial; ++a) taps *= grid_taps_per_axis(s.interpolation);
  return taps;
}

namespace grid_taps {

// What an axis's coordinate math needs of its size and align_corners, computed once per call:
// unnormalizing is (g + 1) * scale - shift; reflection mirrors at low and low + twice_span / 2
// (a single element with align_corners reflects everything onto 0); positions run over
// [0, size).
template <typename A>
struct AxisGeometry {
  A scale, shift;
  A low, twice_span;
  bool single;
  A size, max;
};

template <typename A>
ACCEL_INLINE AxisGeometry<A> axis_geometry(int64_t size, bool align_corners) {
  const bool single = align_corners && size <= 1;
  return {align_corners ? static_cast<A>(size - 1) / 2 : static_cast<A>(size) / 2,
          align_corners ? A(0) : static_cast<A>(0.5),
          align_corners ? A(0) : static_cast<A>(-0.5),
          static_cast<A>(single          ? 1
                         : align_corners ? 2 * (size - 1)
                                         : 2 * size),
          single,
          static_cast<A>(size),
          static_cast<A>(size - 1)};
}

// A coordinate in input elements and its derivative with respect to the grid value.
template <typename A>
struct Coordinate {
  A at, grad;
};

// [-1, 1] onto element positions: the corner centers (align_corners) or the corner edges.
template <typename A>
ACCEL_INLINE Coordinate<A> unnormalize(A g, const AxisGeometry<A>& axis) {
  return {(g + 1) * axis.scale - axis.shift, axis.scale};
}

// Clipped to [0, size - 1]; the derivative is kept strictly inside only (NaN lands on 0).
template <typename A>
ACCEL_INLINE Coordinate<A> clip(Coordinate<A> c, const AxisGeometry<A>& axis) {
  const bool above_low = c.at > 0;
  const A low_clipped = above_low ? c.at : A(0);
  const bool below_high = low_clipped < axis.max;
  return {below_high ? low_clipped : axis.max, (above_low && below_high) ? c.grad : A(0)};
}

// Mirrored at the edges until inside: [0, size - 1] (align_corners) or [-0.5, size - 0.5]; the
// derivative's sign flips with each reflection.
template <typename A>
ACCEL_INLINE Coordinate<A> reflect(Coordinate<A> c, const AxisGeometry<A>& axis) {
  const A shifted = c.at - axis.low;
  const A distance = std::fabs(shifted);
  const A extra = distance - std::trunc(distance / axis.twice_span) * axis.twice_span;
  const A reflected = axis.twice_span - extra;
  const bool one_more_flip = extra > reflected;
  const bool flipped = one_more_flip != (shifted < 0);
  const A at = (one_more_flip ? reflected : extra) + axis.low;
  const A grad = flipped ? -c.grad : c.grad;
  return {axis.single ? A(0) : at, axis.single ? A(0) : grad};
}

// A coordinate moved inside the input by the padding mode (none for zeros).
template <GridPadding P, typename A>
ACCEL_INLINE Coordinate<A> pad(Coordinate<A> c, const AxisGeometry<A>& axis) {
  if constexpr (P == GridPadding::Reflection) c = reflect(c, axis);
  if constexpr (P != GridPadding::Zeros) c = clip(c, axis);
  return c;
}

// An integral position as an index, -1 outside [0, size) (also for NaN and infinities).
template <typename A>
ACCEL_INLINE int32_t index_within(A position, const AxisGeometry<A>& axis) {
  const bool inside = (position >= 0) & (position < axis.size);
  return inside ? static_cast<int32_t>(position) : -1;
}

// The taps of one axis: the input index each reads (-1 outside), its weight and the weight's
// derivative with respect to the grid value.
template <typename A>
struct AxisTaps {
  int32_t index[4];
  A weight[4];
  A slope[4];
};

// Keys' cubic convolution kernel (a = -0.75) and its derivative, for |x| <= 1 (near) and
// 1 < |x| < 2 (far).
template <typename A>
ACCEL_INLINE A cubic_near(A x) {
  const auto a = static_cast<A>(-0.75);
  return ((a + 2) * x - (a + 3)) * x * x + 1;
}
template <typename A>
ACCEL_INLINE A cubic_far(A x) {
  const auto a = static_cast<A>(-0.75);
  return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}
template <typename A>
ACCEL_INLINE A cubic_near_slope(A x) {
  const auto a = static_cast<A>(-0.75);
  return (3 * (a + 2) * x - 2 * (a + 3)) * x;
}
template <typename A>
ACCEL_INLINE A cubic_far_slope(A x) {
  const auto a = static_cast<A>(-0.75);
  return (3 * a * x - 10 * a) * x + 8 * a;
}

template <GridInterpolation I, GridPadding P, typename A>
ACCEL_INLINE AxisTaps<A> axis_taps(A g, const AxisGeometry<A>& axis) {
  const Coordinate<A> unnormalized = unnormalize(g, axis);
  AxisTaps<A> taps{};
  if constexpr (I == GridInterpolation::Cubic) {
    // Positions floor(x) - 1 .. floor(x) + 2 of the unpadded coordinate, each padded.
    const A below = std::floor(unnormalized.at);
    const A t = unnormalized.at - below;
    for (int k = 0; k < 4; ++k) {
      const Coordinate<A> position = {below + static_cast<A>(k - 1), A(0)};
      taps.index[k] = index_within(pad<P>(position, axis).at, axis);
    }
    const A grad = unnormalized.grad;
    taps.weight[0] = cubic_far(t + 1);
    taps.weight[1] = cubic_near(t);
    taps.weight[2] = cubic_near(1 - t);
    taps.weight[3] = cubic_far(2 - t);
    taps.slope[0] = cubic_far_slope(t + 1) * grad;
    taps.slope[1] = cubic_near_slope(t) * grad;
    taps.slope[2] = -cubic_near_slope(1 - t) * grad;
    taps.slope[3] = -cubic_far_slope(2 - t) * grad;
  } else {
    const Coordinate<A> c = pad<P>(unnormalized, axis);
    if constexpr (I == GridInterpolation::Nearest) {
      taps.index[0] = index_within(std::rint(c.at), axis);  // halves to even
      taps.weight[0] = 1;
      taps.slope[0] = 0;
    } else {
      const A below = std::floor(c.at);
      const A upper_weight = c.at - below;
      taps.index[0] = index_within(below, axis);
      taps.index[1] = index_within(below + 1, axis);
      taps.weight[0] = 1 - upper_weight;
      taps.weight[1] = upper_weight;
      taps.slope[0] = -c.grad;
      taps.slope[1] = c.grad;
    }
  }
  return taps;
}

}  // namespace grid_taps

// The geometry of a grid's S axes, in the input's dim order.
template <typename A, int S>
struct GridAxes {
  grid_taps::AxisGeometry<A> axis[S];
  int32_t size[S];
};

template <typename A, int S>
ACCEL_INLINE GridAxes<A, S> grid_axes(const GridTapsShape& s) {
  GridAxes<A, S> axes{};
  for (int a = 0; a < S; ++a) {
    axes.axis[a] = grid_taps::axis_geometry<A>(s.sizes[a], s.align_corners);
    axes.size[a] = static_cast<int32_t>(s.sizes[a]);
  }
  return axes;
}

// Writes one location's taps: for k in [0, grid_tap_count) (the combinations of one tap per
// axis, the last axis's tap varying fastest), index[k * stride] (the flat input position, -1
// where any axis is outside the input), weight[k * stride] (the product of the axes' weights,
// in dim order; 0 outside) and, where weight_grad is not null, weight_grad[k * stride * S + c]:
// the weight's derivative with respect to grid component c (0 outside). `g` holds the
// location's S grid components, x first; A is the accumulate type.
template <GridInterpolation I, GridPadding P, int S, typename A, typename T>
ACCEL_INLINE void grid_location_taps(const GridAxes<A, S>& grid, const T* g, int32_t* index,
                                     T* weight, T* weight_grad, int64_t stride) {
  constexpr int per_axis = grid_taps_per_axis(I);
  constexpr int taps = S == 3 ? per_axis * per_axis * per_axis : per_axis * per_axis;
  grid_taps::AxisTaps<A> axes[S];
  for (int a = 0; a < S; ++a) {
    axes[a] = grid_taps::axis_taps<I, P>(static_cast<A>(g[S - 1 - a]), grid.axis[a]);
  }
  for (int k = 0; k < taps; ++k) {
    int pick[S];
    for (int a = S - 1, rest = k; a >= 0; --a, rest /= per_axis) pick[a] = rest % per_axis;
    // Inside, each partial position is below the input's size, which fits int32.
    int32_t flat = 0;
    bool inside = true;
    A product = 1;
    for (int a = 0; a < S; ++a) {
      const int32_t position = axes[a].index[pick[a]];
      inside = inside & (position >= 0);
      flat = inside ? flat * grid.size[a] + position : 0;
      product *= axes[a].weight[pick[a]];
    }
    index[k * stride] = inside ? flat : -1;
    weight[k * stride] = static_cast<T>(inside ? product : A(0));
    if (weight_grad == nullptr) continue;
    // The derivative along an axis puts that axis's slope in place of its weight.
    for (int d = 0; d < S; ++d) {
      A derivative = 1;
      for (int a = 0; a < S; ++a) {
        derivative *= a == d ? axes[a].slope[pick[a]] : axes[a].weight[pick[a]];
      }
      weight_grad[k * stride * S + (S - 1 - d)] = static_cast<T>(inside ? derivative : A(0));
    }
  }
}

// Calls f.template operator()<I, P, S>() for the shape's interpolation, padding and spatial
// dims (bicubic: 2 only; callers check).
template <typename F>
void dispatch_grid_taps(const GridTapsShape& s, F&& f) {
  const auto with_padding = [&]<GridInterpolation I, int S>() {
    switch (s.padding) {
      case GridPadding::Zeros:
        return f.template operator()<I, GridPadding::Zeros, S>();
      case GridPadding::Border:
        return f.template operator()<I, GridPadding::Border, S>();
      case GridPadding::Reflection:
        return f.template operator()<I, GridPadding::Reflection, S>();
    }
  };
  const auto with_spatial = [&]<GridInterpolation I>() {
    if (s.spatial == 3) return with_padding.template operator()<I, 3>();
    return with_padding.template operator()<I, 2>();
  };
  switch (s.interpolation) {
    case GridInterpolation::Linear:
      return with_spatial.template operator()<GridInterpolation::Linear>();
    case GridInterpolation::Nearest:
      return with_spatial.template operator()<GridInterpolation::Nearest>();
    case GridInterpolation::Cubic:
      return with_padding.template operator()<GridInterpolation::Cubic, 2>();
  }
}

}  // namespace accel
