// The single-process backend: every collective is complete as soon as it is issued. It checks
// its arguments as the multi-process backends do, so misuse shows up before a job is launched.
#include <cstdlib>

#include "accel/base/error.h"
#include "accel/distributed/collective_checks.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {
namespace {

class CompletedWork final : public Work {
 public:
  void wait() override {}
  bool is_completed() const override { return true; }
};

std::shared_ptr<Work> completed() { return std::make_shared<CompletedWork>(); }

}  // namespace

std::shared_ptr<Work> SingleProcessGroup::all_reduce(Tensor& tensor, ReduceOp op) {
  check_collective_tensor(tensor, "ProcessGroup::all_reduce");
  check_reduce_op(op, tensor.dtype(), "ProcessGroup::all_reduce");
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::broadcast(Tensor& tensor, int root) {
  check_collective_tensor(tensor, "ProcessGroup::broadcast");
  check_root(root, 1, "ProcessGroup::broadcast");
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::all_gather(std::vector<Tensor>& outputs,
                                                     const Tensor& input) {
  check_collective_tensor(input, "ProcessGroup::all_gather", "input");
  outputs = {input.clone()};
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::reduce_scatter(Tensor& output,
                                                         const std::vector<Tensor>& inputs,
                                                         ReduceOp op) {
  check_scatter_inputs(output, inputs, 1, "ProcessGroup::reduce_scatter");
  check_reduce_op(op, output.dtype(), "ProcessGroup::reduce_scatter");
  output.copy_(inputs[0]);
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::barrier() { return completed(); }

void SingleProcessGroup::abort(int exit_code) { std::_Exit(exit_code); }

}  // namespace accel::distributed
