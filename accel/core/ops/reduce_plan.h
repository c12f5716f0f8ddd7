// How a reduction over some dims maps onto the [outer, reduced, inner] kernels: when the
// reduced dims are one block of a contiguous tensor no copy is needed; otherwise the
// tensor is permuted (kept dims first) and made contiguous, so the reduced block is last.
#pragma once

#include "accel/core/tensor.h"
#include "accel/kernels/cpu/reduce.h"

namespace accel {

struct ReducePlan {
  Tensor input;             // contiguous, laid out so the reduced dims form one block
  cpu::ReduceShape shape;   // [outer, reduced, inner] of `input`
  DimVector out_sizes;      // result sizes (reduced dims removed, or 1 when keepdim)
  DimVector keepdim_sizes;  // result sizes with reduced dims kept as 1
  SmallVector<int64_t, kInlineDims> reduced_mask;  // 1 for each reduced dim of the input
};

// dims empty = all dims. Dims are wrapped and must be distinct (errors name `op`).
ReducePlan plan_reduction(const Tensor& t, IntArrayRef dims, bool keepdim, const char* op);

}  // namespace accel
