// Argument checks shared by the process-group backends.
#include "accel/distributed/collective_checks.h"

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::distributed {

std::string_view to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return "Sum";
    case ReduceOp::Mean:
      return "Mean";
    case ReduceOp::Max:
      return "Max";
    case ReduceOp::Min:
      return "Min";
  }
  return "?";
}

void check_collective_tensor(const Tensor& tensor, const char* op, const char* what) {
  ACCEL_CHECK(tensor.defined(), op, "expected a defined {}", what);
  ACCEL_CHECK(tensor.is_contiguous(), op,
              "expected a contiguous {} (call .contiguous() first), got sizes {} strides {}", what,
              tensor.sizes(), tensor.strides());
}

void check_reduce_op(ReduceOp reduce, ScalarType dtype, const char* op) {
  ACCEL_CHECK(reduce != ReduceOp::Mean || is_floating_point(dtype), op,
              "ReduceOp::Mean needs a floating-point tensor, got {} (reduce with Sum and divide)",
              dtype);
}

void check_root(int root, int size, const char* op) {
  ACCEL_CHECK(root >= 0 && root < size, op, "root must be a rank of the group (size {}), got {}",
              size, root);
}

void check_scatter_inputs(const Tensor& output, const std::vector<Tensor>& inputs, int size,
                          const char* op) {
  check_collective_tensor(output, op, "output");
  ACCEL_CHECK(static_cast<int>(inputs.size()) == size, op,
              "expected one input per rank ({}), got {}", size, inputs.size());
  for (size_t r = 0; r < inputs.size(); ++r) {
    ACCEL_CHECK(inputs[r].defined(), op, "inputs[{}] is undefined", r);
    ACCEL_CHECK(inputs[r].sizes() == output.sizes() && inputs[r].dtype() == output.dtype(), op,
                "inputs[{}] is {} {} but the output is {} {}", r, inputs[r].dtype(),
                inputs[r].sizes(), output.dtype(), output.sizes());
    ACCEL_CHECK(inputs[r].device() == output.device(), op,
                "inputs[{}] is on {} but the output is on {}", r, inputs[r].device(),
                output.device());
  }
}

Tensor gather_destination(const Tensor& input, int size, std::vector<Tensor>& outputs) {
  std::vector<int64_t> sizes{size};
  sizes.insert(sizes.end(), input.sizes().begin(), input.sizes().end());
  Tensor gathered = empty(sizes, input.options());
  outputs.clear();
  for (int r = 0; r < size; ++r) outputs.push_back(gathered.select(0, r));
  return gathered;
}

Tensor packed_scatter_inputs(const std::vector<Tensor>& inputs) {
  NoGradGuard no_grad;
  return cat(inputs, 0);
}

}  // namespace accel::distributed
