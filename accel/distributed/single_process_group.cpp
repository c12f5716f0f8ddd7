// The single-process backend: every collective is complete as soon as it is issued.
#include "accel/base/error.h"
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

std::shared_ptr<Work> SingleProcessGroup::all_reduce(Tensor& tensor, ReduceOp) {
  ACCEL_CHECK(tensor.defined(), "ProcessGroup::all_reduce", "expected a defined tensor");
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::broadcast(Tensor& tensor, int root) {
  ACCEL_CHECK(tensor.defined(), "ProcessGroup::broadcast", "expected a defined tensor");
  ACCEL_CHECK(root == 0, "ProcessGroup::broadcast",
              "root must be a rank of the group (size 1), got {}", root);
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::all_gather(std::vector<Tensor>& outputs,
                                                     const Tensor& input) {
  ACCEL_CHECK(input.defined(), "ProcessGroup::all_gather", "expected a defined input tensor");
  ACCEL_CHECK(outputs.size() == 1, "ProcessGroup::all_gather",
              "expected one output per rank (1), got {}", outputs.size());
  outputs[0] = input.clone();
  return completed();
}

std::shared_ptr<Work> SingleProcessGroup::barrier() { return completed(); }

}  // namespace accel::distributed
