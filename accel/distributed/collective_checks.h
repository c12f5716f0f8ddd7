// The argument checks every ProcessGroup backend makes, so a program that runs in one process
// fails the same way it would across many, and the buffers the backends build alike.
#pragma once

#include <vector>

#include "accel/core/tensor.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {

// A defined tensor the collective can use: dense in memory (contiguous).
void check_collective_tensor(const Tensor& tensor, const char* op, const char* what = "tensor");
// `reduce` applies to `dtype`: Mean needs a floating-point type.
void check_reduce_op(ReduceOp reduce, ScalarType dtype, const char* op);
// A root in [0, size).
void check_root(int root, int size, const char* op);
// reduce_scatter's inputs: `size` tensors with `output`'s shape and dtype.
void check_scatter_inputs(const Tensor& output, const std::vector<Tensor>& inputs, int size,
                          const char* op);

// all_gather's destination: one [size, ...input's shape] tensor, which `outputs` becomes the
// `size` views of (outputs[r] receives rank r's input).
Tensor gather_destination(const Tensor& input, int size, std::vector<Tensor>& outputs);
// reduce_scatter's inputs as one contiguous tensor, rank after rank.
Tensor packed_scatter_inputs(const std::vector<Tensor>& inputs);

}  // namespace accel::distributed
