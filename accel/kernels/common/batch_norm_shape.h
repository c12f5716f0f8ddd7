// The geometry of batch normalization's kernels on both backends: a contiguous input viewed as
// [batch, channels, spatial] (spatial: the product of the dims after the channels, 1 for
// [N, C]), each channel's statistics taken over its batch * spatial elements.
#pragma once

#include <cstdint>

#include "accel/base/macros.h"

namespace accel {

struct BatchNormShape {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t spatial = 1;

  // Elements per channel.
  ACCEL_INLINE int64_t count() const { return batch * spatial; }
};

}  // namespace accel
