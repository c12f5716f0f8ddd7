// all_reduce_sum's forward and backward: one summing all_reduce each.
#include "accel/distributed/differentiable_all_reduce.h"

#include "accel/core/autograd/function.h"

namespace accel::distributed {
namespace {

Tensor summed_copy(const Tensor& tensor, ProcessGroup& group) {
  Tensor result = tensor.detach().contiguous().clone();
  group.all_reduce(result, ReduceOp::Sum)->wait();
  return result;
}

}  // namespace

Tensor all_reduce_sum(const Tensor& tensor, std::shared_ptr<ProcessGroup> group) {
  Tensor result = summed_copy(tensor, *group);
  if (autograd::should_record(tensor)) {
    autograd::record("all_reduce_sum", {tensor}, result,
                     [group](const Tensor& grad, autograd::GradInputs& in) {
                       if (in.needs(0)) in[0] = summed_copy(grad, *group);
                     });
  }
  return result;
}

}  // namespace accel::distributed
