// The layout of sampling at taps (grid_sample's kernels on every backend): each of `locations`
// outputs of a batch element reads `taps` input positions with weights, the same positions for
// every channel.
#pragma once

#include <cstdint>

namespace accel {

// input [batch, channels, input_size] and out [batch, channels, locations] (contiguous); index
// (int64 flat positions in [0, input_size)) and weight [batch, taps, locations] (contiguous).
struct TapShape {
  int64_t batch, channels, taps, locations, input_size;
};

}  // namespace accel
