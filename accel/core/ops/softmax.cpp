// softmax, log_softmax and logsumexp. softmax/log_softmax run one fused kernel over the
// [outer, dim, inner] layout and write their backward directly from the saved result (no
// chain of primitive ops); logsumexp's gradient is the upstream gradient times the softmax
// over the reduced dims. All three run in float32 under autocast.
#include "accel/core/autocast.h"
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

Tensor softmax_along(const Tensor& input, int64_t dim, std::optional<ScalarType> dtype, bool log,
                     const char* op) {
  Tensor a = autocast_input(input, CastPolicy::Float32);
  if (dtype) a = a.to(*dtype);
  // One dim is always a block of the contiguous input: no permuted copy, and the result
  // (contiguous, input-shaped) shares the plan's layout.
  ReducePlan plan = plan_reduction(a, dim, true, op);
  Tensor out = empty(a.sizes(), a.options());
  backend(a.device())
      .softmax(a.dtype(), plan.input.data_ptr(), out.data_ptr(), plan.shape, log,
               current_stream(a.device()));
  if (autograd::should_record(a)) {
    autograd::record(
        op, {a}, out,
        [so = SavedTensor(out), shape = plan.shape, log](const Tensor& grad, GradInputs& in) {
          const Tensor& y = so.get();
          const Tensor g = grad.to(y.dtype()).contiguous();
          Tensor grad_in = empty(y.sizes(), y.options());
          backend(g.device())
              .softmax_backward(y.dtype(), g.data_ptr(), y.data_ptr(), grad_in.data_ptr(), shape,
                                log, current_stream(g.device()));
          in[0] = grad_in;
        });
  }
  return out;
}

}  // namespace

Tensor softmax(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_along(a, dim, dtype, false, "softmax");
}

Tensor log_softmax(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_along(a, dim, dtype, true, "log_softmax");
}

Tensor logsumexp(const Tensor& input, IntArrayRef dims, bool keepdim) {
  Tensor a = autocast_input(input, CastPolicy::Float32);
  a = a.to(to_floating(a.dtype()));  // integers give the default float type, as in PyTorch
  ReducePlan plan = plan_reduction(a, dims, keepdim, "logsumexp");
  Tensor out = empty(plan.out_sizes, a.options());
  backend(a.device())
      .logsumexp(a.dtype(), plan.input.data_ptr(), out.data_ptr(), plan.shape,
                 current_stream(a.device()));
  if (autograd::should_record(a)) {
    autograd::record(
        "logsumexp", {a}, out,
        [sx = SavedTensor(plan.input), shape = plan.shape, permutation = plan.permutation,
         keep = plan.keepdim_sizes](const Tensor& grad, GradInputs& in) {
          const Tensor& x = sx.get();
          Tensor probs = empty(x.sizes(), x.options());
          backend(x.device())
              .softmax(x.dtype(), x.data_ptr(), probs.data_ptr(), shape, false,
                       current_stream(x.device()));
          in[0] = to_input_order(probs, permutation) * grad.reshape(keep);
        });
  }
  return out;
}

Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return accel::softmax(*this, dim, dtype);
}
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return accel::log_softmax(*this, dim, dtype);
}
Tensor Tensor::logsumexp(IntArrayRef dims, bool keepdim) const {
  return accel::logsumexp(*this, dims, keepdim);
}

}  // namespace accel
