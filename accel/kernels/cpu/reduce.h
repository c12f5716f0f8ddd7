// CPU reduction kernels over a [outer, reduced, inner] view of contiguous memory: each output
// element (o, i) combines the `reduced` elements input[o, r, i]; softmax-style kernels
// normalize along r instead. Every output is computed by one thread with its terms in a fixed
// order (sums in fixed chunks of row_fold.h's kReduceChunk combined in order), so results are
// bit-identical for any thread count: threads split outputs, never one output's terms.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cpu {

// out[o, i] = sum_r in[o, r, i], accumulating in double for float64 and float otherwise;
// `out_type` may differ from `in_type` (sum of int32 into int64, of bool into int64).
void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape);
// out[o, i] = sqrt(sum_r in[o, r, i]^2) for a floating type, the squares added in sum's order
// and accumulate type, the root taken there too.
void two_norm(ScalarType type, const void* in, void* out, ReduceShape shape);
// out[o, i] = prod_r in[o, r, i], with the types and accumulation of sum.
void prod(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape);
// grad_in[o, r, i] = grad[o, i] * d prod / d in[o, r, i]: the product of the other elements
// (zero when the row holds two zeros), as PyTorch computes it.
void prod_backward(ScalarType type, const void* in, const void* grad, void* grad_in,
                   ReduceShape shape);

// values[o, i] = max (or min) over r and indices[o, i] the first r attaining it; NaN counts
// as the extremum, as in PyTorch. Either output may be null. Requires reduced >= 1.
void extremum(Extremum kind, ScalarType type, const void* in, void* values, int64_t* indices,
              ReduceShape shape);
// grad_in[o, indices[o, i], i] = grad[o, i]; grad_in must hold zeros.
void scatter_reduced(ScalarType type, const void* grad, const int64_t* indices, void* grad_in,
                     ReduceShape shape);

// out[o, i] = variance over r with divisor max(0, reduced - correction) (its square root when
// take_sqrt), computed in double by two passes; `mean` (may be null) receives the mean.
void moments(ScalarType type, const void* in, void* out, void* mean, ReduceShape shape,
             int64_t correction, bool take_sqrt);

// out[o, i] = log(sum_r exp(in[o, r, i])), shifted by the finite maximum for stability.
void logsumexp(ScalarType type, const void* in, void* out, ReduceShape shape);

// out[o, :, i] = softmax (or log_softmax when `log`) of in[o, :, i], shifted by the maximum.
void softmax(ScalarType type, const void* in, void* out, ReduceShape shape, bool log);
// From the forward result `out` and its gradient: softmax grad_in = out * (grad - sum(grad *
// out)); log_softmax grad_in = grad - exp(out) * sum(grad), sums taken over r.
void softmax_backward(ScalarType type, const void* grad, const void* out, void* grad_in,
                      ReduceShape shape, bool log);

}  // namespace accel::cpu
