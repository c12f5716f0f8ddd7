// The geometry of a 2-D pooling over contiguous [planes, H, W] inputs (planes = N * C), as
// the pooling kernels of every backend read it.
#pragma once

#include <cstdint>

namespace accel {

// Input [planes, in_h, in_w] -> output [planes, out_h, out_w]; the window of output (oh, ow)
// starts at (oh * stride - pad) and spans kernel taps dilation apart.
struct Pool2dShape {
  int64_t planes, in_h, in_w, out_h, out_w;
  int64_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
};

// How average pooling picks windows and divisors: fixed windows dividing by the window size
// clipped to the padded input (IncludePad) or to the input itself (ExcludePad), or PyTorch's
// adaptive windows [floor(i * in / out), ceil((i + 1) * in / out)) (kernel/stride unused).
enum class AvgWindows { IncludePad, ExcludePad, Adaptive };

}  // namespace accel
