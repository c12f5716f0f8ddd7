// max/min (over everything, or along one dim with int64 indices), amax/amin (over dims) and
// argmax/argmin. Gradients follow PyTorch: a value chosen by index (max(dim)) sends its whole
// gradient to that index; a value chosen without one (max(), amax) splits it evenly among
// the elements that tie for it. Ties pick the first index; NaN counts as the extremum.
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;

namespace {

void check_nonempty(const Tensor& a, const ReducePlan& plan, const char* op) {
  if (plan.shape.reduced > 0) return;
  DimVector dims;
  for (size_t d = 0; d < plan.reduced_mask.size(); ++d) {
    if (plan.reduced_mask[d]) dims.push_back(static_cast<int64_t>(d));
  }
  fail(op, "cannot compute on an empty tensor: reducing dims {} of shape {} leaves no elements",
       dims, a.sizes());
}

// max()/min()/amax/amin: the values only, the gradient shared among ties.
Tensor extremum_values(Extremum kind, const Tensor& a, IntArrayRef dims, bool keepdim,
                       const char* op) {
  ReducePlan plan = plan_reduction(a, dims, keepdim, op);
  check_nonempty(a, plan, op);
  Tensor out = empty(plan.out_sizes, a.options());
  backend(a.device())
      .extremum(kind, a.dtype(), plan.input.data_ptr(), out.data_ptr(), nullptr, plan.shape,
                current_stream(a.device()));
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out,
                     [sa = SavedTensor(a), so = SavedTensor(out), keep = plan.keepdim_sizes,
                      dims = DimVector(dims)](const Tensor& grad, GradInputs& in) {
                       const Tensor ties = sa.get() == so.get().reshape(keep);
                       in[0] = ties * (grad.reshape(keep) / sum(ties, dims, true));
                     });
  }
  return out;
}

// max(dim)/min(dim): values and the index of each, the gradient sent to that index.
std::tuple<Tensor, Tensor> extremum_along(Extremum kind, const Tensor& a, int64_t dim, bool keepdim,
                                          const char* op) {
  ReducePlan plan = plan_reduction(a, dim, keepdim, op);
  check_nonempty(a, plan, op);
  Tensor values = empty(plan.out_sizes, a.options());
  Tensor indices = empty(plan.out_sizes, a.options().dtype(kInt64));
  backend(a.device())
      .extremum(kind, a.dtype(), plan.input.data_ptr(), values.data_ptr(),
                indices.data_ptr<int64_t>(), plan.shape, current_stream(a.device()));
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, values,
                     [si = SavedTensor(indices), ia = InputInfo(a), shape = plan.shape](
                         const Tensor& grad, GradInputs& in) {
                       const Tensor g = grad.to(ia.dtype).contiguous();
                       Tensor grad_in = zeros(ia.sizes, g.options());
                       backend(g.device())
                           .scatter_reduced(g.dtype(), g.data_ptr(), si.get().data_ptr<int64_t>(),
                                            grad_in.data_ptr(), shape, current_stream(g.device()));
                       in[0] = grad_in;
                     });
  }
  return {values, indices};
}

// argmax/argmin: the index along dim, or into the flattened tensor when dim is absent.
Tensor arg_extremum(Extremum kind, const Tensor& a, std::optional<int64_t> dim, bool keepdim,
                    const char* op) {
  ReducePlan plan = dim ? plan_reduction(a, *dim, keepdim, op) : plan_reduction(a, {}, keepdim, op);
  check_nonempty(a, plan, op);
  Tensor indices = empty(plan.out_sizes, a.options().dtype(kInt64));
  backend(a.device())
      .extremum(kind, a.dtype(), plan.input.data_ptr(), nullptr, indices.data_ptr<int64_t>(),
                plan.shape, current_stream(a.device()));
  return indices;
}

}  // namespace

Tensor max(const Tensor& a) { return extremum_values(Extremum::Max, a, {}, false, "max"); }
Tensor min(const Tensor& a) { return extremum_values(Extremum::Min, a, {}, false, "min"); }

std::tuple<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim) {
  return extremum_along(Extremum::Max, a, dim, keepdim, "max");
}
std::tuple<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim) {
  return extremum_along(Extremum::Min, a, dim, keepdim, "min");
}

Tensor amax(const Tensor& a, IntArrayRef dims, bool keepdim) {
  return extremum_values(Extremum::Max, a, dims, keepdim, "amax");
}
Tensor amin(const Tensor& a, IntArrayRef dims, bool keepdim) {
  return extremum_values(Extremum::Min, a, dims, keepdim, "amin");
}

Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  return arg_extremum(Extremum::Max, a, dim, keepdim, "argmax");
}
Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  return arg_extremum(Extremum::Min, a, dim, keepdim, "argmin");
}

Tensor Tensor::max() const { return accel::max(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return accel::max(*this, dim, keepdim);
}
Tensor Tensor::min() const { return accel::min(*this); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return accel::min(*this, dim, keepdim);
}
Tensor Tensor::amax(IntArrayRef dims, bool keepdim) const {
  return accel::amax(*this, dims, keepdim);
}
Tensor Tensor::amin(IntArrayRef dims, bool keepdim) const {
  return accel::amin(*this, dims, keepdim);
}
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const {
  return accel::argmax(*this, dim, keepdim);
}
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const {
  return accel::argmin(*this, dim, keepdim);
}

}  // namespace accel
