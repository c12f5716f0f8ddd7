// The sliding windows along one dim that the 3-D convolutions and poolings take over depth
// before handing each window's planes to their 2-D forms.
#pragma once

#include <cstdint>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// `count` windows of `kernel` taps, `dilation` apart; window i starts at i * stride -
// pad_begin. Positions outside the tensor read the fill value.
struct WindowsAlong {
  int64_t kernel, stride, pad_begin, dilation, count;
};

// t with dim `dim` of size count (window i) and a new dim `taps_dim` of the result of size
// kernel (tap k): entry (i, k) is the element at i * stride - pad_begin + k * dilation. A copy;
// gradients flow back to t.
Tensor windows_along(const Tensor& t, int64_t dim, const WindowsAlong& w, double fill,
                     int64_t taps_dim);

}  // namespace accel::nn::functional
