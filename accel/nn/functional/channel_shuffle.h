// torch.nn.functional's channel_shuffle: the channels of [N, C, *] split into groups and
// interleaved (ShuffleNet's mixing of grouped convolutions' outputs).
#pragma once

#include <cstdint>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// [N, C, *] with channel g * (C / groups) + k moved to k * groups + g.
Tensor channel_shuffle(const Tensor& input, int64_t groups);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
