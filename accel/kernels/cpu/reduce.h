// CPU reduction kernels over a [outer, reduced, inner] view of contiguous memory: each output
// element (o, i) combines the `reduced` elements input[o, r, i]. Sums add in fixed chunks
// of kReduceChunk elements combined in order, so results are bit-identical for any thread
// count (threads split outputs, never one output's terms).
#pragma once

#include <cstdint>

#include "accel/core/scalar_type.h"

namespace accel::cpu {

inline constexpr int64_t kReduceChunk = 4096;

struct ReduceShape {
  int64_t outer = 1;
  int64_t reduced = 1;
  int64_t inner = 1;
};

// out[o, i] = sum_r in[o, r, i], accumulating in double for float64 and float otherwise;
// `out_type` may differ from `in_type` (sum of int32 into int64, of bool into int64).
void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape);

}  // namespace accel::cpu
