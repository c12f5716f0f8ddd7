// How a reduction over some dims maps onto the [outer, reduced, inner] kernels: when the
// reduced dims are one block of a contiguous tensor no copy is needed; otherwise the
// tensor is permuted (kept dims first) and made contiguous, so the reduced block is last.
#pragma once

#include "accel/core/tensor.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel {

struct ReducePlan {
  Tensor input;             // contiguous, laid out so the reduced dims form one block
  ReduceShape shape;        // [outer, reduced, inner] of `input`
  DimVector out_sizes;      // result sizes (reduced dims removed, or 1 when keepdim)
  DimVector keepdim_sizes;  // result sizes with reduced dims kept as 1
  SmallVector<int64_t, kInlineDims> reduced_mask;  // 1 for each reduced dim of the input
  DimVector permutation;  // input dim order of `input`; empty when no permute was needed
};

// dims empty = all dims. Dims are wrapped and must be distinct (errors name `op`).
ReducePlan plan_reduction(const Tensor& t, IntArrayRef dims, bool keepdim, const char* op);

// A tensor laid out like a plan's input (e.g. a gradient a kernel wrote in that layout),
// viewed in the original input's dim order; `permutation` is the plan's.
Tensor to_input_order(const Tensor& planned, IntArrayRef permutation);

}  // namespace accel
