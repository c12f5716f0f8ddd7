// The layouts of sampling at taps (grid_sample's kernels on every backend): each of
// `locations` outputs of a batch element reads `taps` input positions with weights, the same
// positions for every channel; the taps come from a grid of locations.
#pragma once

#include <cstdint>

namespace accel {

// input [batch, channels, input_size] and out [batch, channels, locations] (contiguous); index
// (int32 flat positions in [0, input_size), input_size < 2^31) and weight
// [batch, taps, locations] (contiguous).
struct TapShape {
  int64_t batch, channels, taps, locations, input_size;
};

// The most values per location that the weights of its taps may depend on (tap_sample's
// backward): a grid location's coordinates.
inline constexpr int64_t kMaxTapParams = 3;

enum class GridInterpolation : int8_t { Linear, Nearest, Cubic };
enum class GridPadding : int8_t { Zeros, Border, Reflection };

// A grid [batch, locations, spatial] (contiguous; component 0 is x, along the input's last
// dim) over an input with `spatial` (2 or 3) dims of `sizes`, in the input's dim order.
struct GridTapsShape {
  int64_t batch, locations;
  int spatial;
  int64_t sizes[3];
  GridInterpolation interpolation;
  GridPadding padding;
  bool align_corners;
};

}  // namespace accel
