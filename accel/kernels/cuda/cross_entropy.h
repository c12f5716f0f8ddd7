// CUDA cross-entropy over class indices, forward and backward (contracts in kernels/backend.h,
// per-position formulas in kernels/common/cross_entropy_math.h, shared with the CPU kernel).
// A target that is neither a class nor the ignore_index is reported through the device error
// record (raised at the next synchronization) and its position treated as ignored.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/cross_entropy_math.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cuda {

void cross_entropy_forward(ScalarType type, const void* logits, const int64_t* target,
                           const void* weight, void* loss, void* lse, void* target_weight,
                           ReduceShape shape, const math::CrossEntropyScalars& s,
                           const Stream& stream);
void cross_entropy_backward(ScalarType type, const void* logits, const int64_t* target,
                            const void* weight, const void* lse, const void* grad,
                            bool grad_is_scalar, void* grad_logits, ReduceShape shape,
                            const math::CrossEntropyScalars& s, const Stream& stream);

}  // namespace accel::cuda
