// var and std over dims with a correction (1: Bessel's unbiased estimate, PyTorch's default),
// from a two-pass kernel in double that also yields the mean the gradient needs:
// d var / dx = 2 (x - mean) / (N - correction); d std / dx = (x - mean) / ((N - correction)
// std), 0 where std is 0 (PyTorch's convention for constant inputs).
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

Tensor moments(const Tensor& a, IntArrayRef dims, int64_t correction, bool keepdim, bool take_sqrt,
               const char* op) {
  ACCEL_CHECK(is_floating_point(a.dtype()), op,
              "std and var only support floating point dtypes, got {}", a.dtype());
  ReducePlan plan = plan_reduction(a, dims, keepdim, op);
  Tensor out = empty(plan.out_sizes, a.options());
  const bool recording = autograd::should_record(a);
  Tensor mean = recording ? empty(plan.keepdim_sizes, a.options()) : Tensor();
  backend(a.device())
      .moments(a.dtype(), plan.input.data_ptr(), out.data_ptr(),
               recording ? mean.data_ptr() : nullptr, plan.shape, correction, take_sqrt,
               current_stream(a.device()));
  if (recording) {
    const double divisor = static_cast<double>(plan.shape.reduced - correction);
    autograd::record(op, {a}, out,
                     [sa = SavedTensor(a), so = take_sqrt ? SavedTensor(out) : SavedTensor(),
                      mean = std::move(mean), keep = plan.keepdim_sizes,
                      divisor](const Tensor& grad, GradInputs& in) {
                       const Tensor g = grad.reshape(keep);
                       Tensor scale;
                       if (so.defined()) {
                         const Tensor std = so.get().reshape(keep);
                         scale = where(std == 0, 0.0, g / (std * divisor));
                       } else {
                         scale = g * (2.0 / divisor);
                       }
                       in[0] = (sa.get() - mean) * scale;
                     });
  }
  return out;
}

}  // namespace

Tensor var(const Tensor& a, IntArrayRef dims, int64_t correction, bool keepdim) {
  return moments(a, dims, correction, keepdim, false, "var");
}
Tensor std(const Tensor& a, IntArrayRef dims, int64_t correction, bool keepdim) {
  return moments(a, dims, correction, keepdim, true, "std");
}

Tensor Tensor::var(IntArrayRef dims, int64_t correction, bool keepdim) const {
  return accel::var(*this, dims, correction, keepdim);
}
Tensor Tensor::std(IntArrayRef dims, int64_t correction, bool keepdim) const {
  return accel::std(*this, dims, correction, keepdim);
}

}  // namespace accel
