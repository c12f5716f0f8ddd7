// Pooling in functional form (torch.nn.functional's max_pool2d, avg_pool2d and
// adaptive_avg_pool2d): the core ops of accel/core/pooling.h under their F:: names.
#pragma once

#include "accel/core/pooling.h"

namespace accel::nn::functional {

using ::accel::adaptive_avg_pool2d;
using ::accel::avg_pool2d;
using ::accel::max_pool2d;
using ::accel::max_pool2d_with_indices;

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
