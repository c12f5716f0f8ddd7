// What the ops that index along one dim share (core/ops/index.cpp, scatter.cpp): argument checks,
// and the gather and scatter kernels run on checked operands.
#pragma once

#include "accel/core/tensor.h"
#include "accel/kernels/common/scatter_math.h"

namespace accel {

// The index is int64 or int32, on self's device.
void check_index(const Tensor& self, const Tensor& index, const char* op);
// The index has self's rank and fits inside self apart from `dim`, and inside src if any.
void check_index_shape(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                       const char* op);
// The functions below check no shapes, dtypes or devices; the kernels they run test each index
// against the size of the dim it indexes, failing with "<name>: index I is out of bounds ...".

// out[i] = input[index[i] along dim]: a new tensor of the index's shape.
Tensor gather_values(const char* name, const Tensor& input, int64_t dim, const Tensor& index);
// self[index[i] along dim] combined with src[i] in place (math::ScatterReduce), for a self no
// one else sees yet.
void scatter_into(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                  const Tensor& index, const Tensor& src);
// A copy of self with src combined in by `op` (self's autograd history left behind).
Tensor scattered(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                 const Tensor& index, const Tensor& src);
// scattered(name, op, self, ...) recorded as `name` for autograd: `recorded_src` is src when it
// is an input (not a value). src's gradient is the output's read where src went; self's is all
// of it, less (Assign) the positions written over.
Tensor scatter_recorded(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                        const Tensor& index, const Tensor& src, const Tensor& recorded_src);
// The gradient of a read by index: `grad` (over the index's shape) summed into zeros of
// `sizes` where it was read from, so repeated indices add up.
Tensor scatter_add_into_zeros(const char* name, IntArrayRef sizes, int64_t dim, const Tensor& index,
                              const Tensor& grad);
// A 1-D (or 0-dim) index for `dim` broadcast to `sizes`: a slice index as a gather / scatter one.
Tensor spread_index(const Tensor& index, int64_t dim, IntArrayRef sizes);
// `grad` (over the index's shape) placed in the leading block of zeros of `sizes`.
Tensor pad_to(const Tensor& grad, IntArrayRef sizes);

}  // namespace accel
