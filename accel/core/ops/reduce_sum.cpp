// sum and mean (over all or some dims) and sum_to, the inverse of broadcasting that every
// broadcasting op's backward uses. The gradient of a sum is the upstream gradient expanded
// back over the reduced dims. Under autocast sum and mean run in float32; sum_to (used by
// backward functions) keeps the gradient's dtype.
#include "accel/core/autocast.h"
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;

namespace {

ScalarType sum_type(ScalarType in, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(in, true) ? kInt64 : in;
}

// Expands a gradient of the reduced result back to the input's shape.
Tensor expand_reduced(const Tensor& grad, const DimVector& keepdim_sizes,
                      const DimVector& in_sizes) {
  return grad.reshape(keepdim_sizes).expand(in_sizes);
}

// sum without autocast; `op` names the public op in errors.
Tensor sum_impl(const Tensor& a, IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype,
                const char* op) {
  ReducePlan plan = plan_reduction(a, dims, keepdim, op);
  const ScalarType out_type = sum_type(a.dtype(), dtype);
  Tensor out = empty(plan.out_sizes, a.options().dtype(out_type));
  backend(a.device())
      .sum(out_type, plan.input.dtype(), plan.input.data_ptr(), out.data_ptr(), plan.shape,
           current_stream(a.device()));
  if (autograd::should_record(a)) {
    autograd::record("sum", {a}, out,
                     [keep = plan.keepdim_sizes, in = autograd::InputInfo(a)](const Tensor& grad,
                                                                              GradInputs& g) {
                       g[0] = expand_reduced(grad, keep, in.sizes).to(in.dtype);
                     });
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& a, IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_impl(autocast_input(a, CastPolicy::Float32), dims, keepdim, dtype, "sum");
}

Tensor sum(const Tensor& a, std::optional<ScalarType> dtype) { return sum(a, {}, false, dtype); }

Tensor mean(const Tensor& a, IntArrayRef dims, bool keepdim) {
  ACCEL_CHECK(is_floating_point(a.dtype()), "mean",
              "could not infer output dtype: input dtype must be floating point, got {}",
              a.dtype());
  const Tensor total = sum_impl(autocast_input(a, CastPolicy::Float32), dims, keepdim, {}, "mean");
  // An empty reduction divides 0 by 0: nan, as in PyTorch.
  const int64_t count = total.numel() == 0 ? 1 : a.numel() / total.numel();
  return total / static_cast<double>(count);
}

Tensor mean(const Tensor& a) { return mean(a, {}, false); }

Tensor sum_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  DimVector dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < lead || (sizes[d - lead] == 1 && grad.sizes()[d] != 1)) dims.push_back(d);
  }
  Tensor reduced = dims.empty() ? grad : sum_impl(grad, dims, true, {}, "sum_to");
  return reduced.reshape(sizes);
}

Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return accel::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) const {
  return accel::sum(*this, dims, keepdim, dtype);
}
Tensor Tensor::mean() const { return accel::mean(*this); }
Tensor Tensor::mean(IntArrayRef dims, bool keepdim) const {
  return accel::mean(*this, dims, keepdim);
}

}  // namespace accel
