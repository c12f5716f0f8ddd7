// all_reduce_sum: a tensor summed over a process group's processes, as an op autograd
// differentiates: its backward sums the processes' gradients the same way (every process's
// output depends on every process's input). SyncBatchNorm's statistics go through it.
#pragma once

#include <memory>

#include "accel/core/tensor.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {

// A new tensor; `tensor` is left as it is. Every process must call it in the same order, in
// forward and (through autograd) in backward.
Tensor all_reduce_sum(const Tensor& tensor, std::shared_ptr<ProcessGroup> group);

}  // namespace accel::distributed
