// torch.nn.functional's pixel_shuffle and pixel_unshuffle: moving factor^2 channels into a
// factor x factor block of pixels (sub-pixel convolution upsampling) and back.
#pragma once

#include <cstdint>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// [*, C * r^2, H, W] -> [*, C, H * r, W * r] for r = upscale_factor.
Tensor pixel_shuffle(const Tensor& input, int64_t upscale_factor);
// [*, C, H * r, W * r] -> [*, C * r^2, H, W] for r = downscale_factor.
Tensor pixel_unshuffle(const Tensor& input, int64_t downscale_factor);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
