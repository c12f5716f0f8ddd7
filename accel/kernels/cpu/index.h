// CPU kernels that move elements by index along one dim: gather (out[i] = in[index[i]]) and
// scatter_add (self[index[i]] += src[i]), both walking the index's shape, plus the range
// check every indexing op runs before it touches memory. index_select and its gradient
// (index_add) are the same kernels over an index broadcast along the other dims.
#pragma once

#include <cstdint>
#include <optional>

#include "accel/core/scalar_type.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// The first of `n` contiguous indices (int64 or int32) outside [0, size), if any.
std::optional<int64_t> find_invalid_index(ScalarType index_type, const void* index, int64_t n,
                                          int64_t size);

// Loop operands over the index's shape: 0 = out, 1 = the input with its stride along the
// indexed dim set to 0, 2 = the index. out[i] = *(in[i] + index[i] * dim_stride), where
// dim_stride is the input's stride along the indexed dim in bytes.
void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride);

// Loop operands over the index's shape: 0 = self with its stride along the indexed dim set
// to 0, 1 = src, 2 = the index. *(self[i] + index[i] * dim_stride) += src[i]. Runs on one
// thread in the loop's order, so repeated indices always accumulate in the same order.
void scatter_add(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride);

}  // namespace accel::cpu
