// One image's 2-D convolution geometry, as the im2col/col2im kernels of every backend read
// it (Conv1d uses a unit height).
#pragma once

#include <cstdint>

namespace accel {

// pad_h / pad_w are the top / left padding; the bottom / right padding is whatever out_h /
// out_w imply (PyTorch's "same" pads unevenly).
struct ConvGeometry {
  int64_t channels, height, width;
  int64_t kernel_h, kernel_w;
  int64_t pad_h, pad_w;
  int64_t stride_h, stride_w;
  int64_t dilation_h, dilation_w;
  int64_t out_h, out_w;
};

}  // namespace accel
