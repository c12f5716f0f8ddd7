// CPU cross-entropy over class indices, forward and backward (contracts in kernels/backend.h,
// per-position formulas in kernels/common/cross_entropy_math.h): the forward saves each
// position's log-sum-exp, from which the backward recomputes the softmax, so probabilities are
// never stored. Threads split positions and each position's classes are summed in order on one
// thread, so results are bit-identical for any thread count.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/cross_entropy_math.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cpu {

// Throws for the first target (in order) that is neither a class nor the ignore_index,
// before writing anything.
void cross_entropy_forward(ScalarType type, const void* logits, const int64_t* target,
                           const void* weight, void* loss, void* lse, void* target_weight,
                           ReduceShape shape, const math::CrossEntropyScalars& s);
void cross_entropy_backward(ScalarType type, const void* logits, const int64_t* target,
                            const void* weight, const void* lse, const void* grad,
                            bool grad_is_scalar, void* grad_logits, ReduceShape shape,
                            const math::CrossEntropyScalars& s);

}  // namespace accel::cpu
