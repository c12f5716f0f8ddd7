// torch.nn.functional.one_hot: class indices as rows of zeros with a 1 at the index.
#pragma once

#include <cstdint>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// int64 `classes` of any shape -> int64 [*shape, num_classes]; num_classes -1 takes the largest
// class + 1 (read from the tensor, a host synchronization on a device).
Tensor one_hot(const Tensor& classes, int64_t num_classes = -1);

}  // namespace accel::nn::functional
