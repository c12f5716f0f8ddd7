// prod over all elements or along one dim (integer and bool inputs give int64, as in
// PyTorch). Each element's gradient is the product of the other elements rather than
// prod / x, so inputs holding zeros get PyTorch's gradients instead of nan.
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

Tensor prod_over(const Tensor& a, IntArrayRef dims, bool keepdim) {
  ReducePlan plan = plan_reduction(a, dims, keepdim, "prod");
  const ScalarType out_type = is_integral(a.dtype(), true) ? kInt64 : a.dtype();
  Tensor out = empty(plan.out_sizes, a.options().dtype(out_type));
  backend(a.device())
      .prod(out_type, a.dtype(), plan.input.data_ptr(), out.data_ptr(), plan.shape,
            current_stream(a.device()));
  if (autograd::should_record(a)) {
    // prod reduces all dims or one: a block of the contiguous input, never a permuted copy.
    autograd::record(
        "prod", {a}, out,
        [sx = SavedTensor(plan.input), shape = plan.shape](const Tensor& grad, GradInputs& in) {
          const Tensor& x = sx.get();
          const Tensor g = grad.to(x.dtype()).contiguous();
          Tensor grad_in = empty(x.sizes(), x.options());
          backend(x.device())
              .prod_backward(x.dtype(), x.data_ptr(), g.data_ptr(), grad_in.data_ptr(), shape,
                             current_stream(x.device()));
          in[0] = grad_in;
        });
  }
  return out;
}

}  // namespace

Tensor prod(const Tensor& a) { return prod_over(a, {}, false); }
Tensor prod(const Tensor& a, int64_t dim, bool keepdim) { return prod_over(a, dim, keepdim); }

Tensor Tensor::prod() const { return accel::prod(*this); }
Tensor Tensor::prod(int64_t dim, bool keepdim) const { return accel::prod(*this, dim, keepdim); }

}  // namespace accel
