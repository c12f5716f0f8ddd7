// cumsum: running sums along one dim, in the types PyTorch uses (integer and bool inputs sum
// into int64 unless a dtype is given; the input is converted to the result's dtype first, so
// that conversion carries the gradient between dtypes). The gradient of a running sum is the
// running sum of the gradient taken from the other end.
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;

Tensor cumsum(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype) {
  constexpr const char* op = "cumsum";
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  const int64_t d = wrap_dim(dim, a.dim(), op);
  const ScalarType type = dtype.value_or(a.is_floating_point() ? a.dtype() : kInt64);
  const Tensor src = a.to(type);
  const ReducePlan plan = plan_reduction(src, {d}, true, op);
  Tensor out = empty(src.sizes(), src.options());
  backend(src.device())
      .cumsum(type, plan.input.data_ptr(), out.data_ptr(), plan.shape,
              current_stream(src.device()));
  if (autograd::should_record(src)) {
    autograd::record(op, {src}, out,
                     [d, scalar = src.dim() == 0](const Tensor& grad, GradInputs& in) {
                       in[0] = scalar ? grad : grad.flip({d}).cumsum(d).flip({d});
                     });
  }
  return out;
}

Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  return accel::cumsum(*this, dim, dtype);
}

}  // namespace accel
