// Copies and conversions: copy_, clone, contiguous, to(dtype) (differentiable between
// floating types) and to(device), plus fill_/zero_.
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;

namespace {
// Writes src (broadcast to dst's shape, converted to dst's dtype) into dst; no autograd.
void copy_values(const Tensor& dst, const Tensor& src, const char* op) {
  check_same_device(dst, src, op);
  backend(dst.device())
      .copy(dst.dtype(), src.dtype(), make_loop<2>(dst, {&src}, op), current_stream(dst.device()));
}
}  // namespace

Tensor& Tensor::copy_(const Tensor& src, bool) {
  ACCEL_CHECK(src.defined(), "copy_", "the source tensor is undefined");
  autograd::check_inplace(*this, autograd::requires_grad(src), "copy_");
  if (impl_ == src.impl_ptr()) return *this;
  copy_values(*this, src, "copy_");
  storage()->bump_version();
  if (autograd::should_record(src) || (GradMode::is_enabled() && impl()->grad_fn)) {
    // The old values are overwritten: only src receives a gradient.
    autograd::record("copy_", {src}, *this,
                     [is = autograd::InputInfo(src)](const Tensor& grad, GradInputs& in) {
                       in[0] = is.reduce(grad);
                     });
  }
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  autograd::check_inplace(*this, false, "fill_");
  ScalarBuffer buffer(value, dtype());
  backend(device()).fill(dtype(), make_loop<1>(*this, {}, "fill_"), buffer.data(),
                         current_stream(device()));
  storage()->bump_version();
  if (GradMode::is_enabled() && impl()->grad_fn) {
    // Filled values are constants: the previous history no longer matters.
    impl()->grad_fn.reset();
  }
  return *this;
}

Tensor& Tensor::zero_() { return fill_(0); }

Tensor clone(const Tensor& a) {
  Tensor out = empty(a.sizes(), a.options());
  copy_values(out, a, "clone");
  if (autograd::should_record(a)) {
    autograd::record("clone", {a}, out, [](const Tensor& grad, GradInputs& in) { in[0] = grad; });
  }
  return out;
}

Tensor contiguous(const Tensor& a) { return a.is_contiguous() ? a : clone(a); }

Tensor to_dtype(const Tensor& a, ScalarType dtype) {
  if (a.dtype() == dtype) return a;
  Tensor out = empty(a.sizes(), a.options().dtype(dtype));
  copy_values(out, a, "to");
  if (autograd::should_record(a) && is_floating_point(dtype)) {
    autograd::record("to", {a}, out, [from = a.dtype()](const Tensor& grad, GradInputs& in) {
      in[0] = grad.to(from);
    });
  }
  return out;
}

Tensor to_device(const Tensor& a, Device device) {
  if (a.device() == device) return a;
  fail("to", "cannot move a tensor from {} to {}: this build has no CUDA backend", a.device(),
       device);
}

Tensor Tensor::to(ScalarType dtype, bool copy) const {
  Tensor out = to_dtype(*this, dtype);
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(Device device, bool, bool copy) const {
  Tensor out = to_device(*this, device);
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(TensorOptions options, bool, bool copy) const {
  Tensor out = to_dtype(to_device(*this, options.device()), options.dtype());
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(Device device, ScalarType dtype) const {
  return to_dtype(to_device(*this, device), dtype);
}
Tensor Tensor::contiguous() const { return accel::contiguous(*this); }
Tensor Tensor::clone() const { return accel::clone(*this); }

}  // namespace accel
