// Copies and conversions: copy_, clone, contiguous, to(dtype) (differentiable between
// floating types), to(device) (differentiable), pin_memory, plus fill_/zero_. A copy between
// devices converts and densifies on the source's device, then moves bytes once.
#include "accel/core/cuda.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;

namespace {

// Writes src (broadcast to dst's shape, converted to dst's dtype) into dst, both on one
// device; no autograd.
void copy_values(const Tensor& dst, const Tensor& src, const char* op) {
  check_same_device(dst, src, op);
  backend(dst.device())
      .copy(dst.dtype(), src.dtype(), make_loop<2>(dst, {&src}, op), current_stream(dst.device()));
}

// The same across devices. The copy is ordered on the current stream of the CUDA side (the
// destination's when both are CUDA devices). It runs asynchronously only when asked and when
// no host memory but pinned memory is involved, which it then keeps reserved until the copy is
// done; otherwise it returns once complete.
void copy_across_devices(const Tensor& dst, const Tensor& src, bool non_blocking) {
  NoGradGuard no_grad;  // conversions of the operands, not recorded ops
  const Tensor dense_src = src.to(dst.dtype()).expand(dst.sizes()).contiguous();
  const Tensor target = dst.is_contiguous() ? dst : empty(dst.sizes(), dst.options());
  const Stream stream = current_stream(dst.is_cuda() ? dst.device() : src.device());
  if (dst.is_cuda() && src.is_cuda()) {
    // Another device's pending writes to src come first.
    Event written;
    written.record(current_stream(src.device()));
    written.block(stream);
  }
  const bool host_pinned =
      (dst.is_cuda() || target.is_pinned()) && (src.is_cuda() || dense_src.is_pinned());
  const bool async = non_blocking && target.is_same(dst) && host_pinned;
  cuda::copy_bytes(target.data_ptr(), target.device(), dense_src.data_ptr(), dense_src.device(),
                   static_cast<size_t>(target.nbytes()), stream, async);
  if (async) {
    dense_src.record_stream(stream);
    target.record_stream(stream);
    if (src.is_cuda() && dst.is_cuda()) {
      // And the source device's later writes to src wait until the copy has read it.
      Event copied;
      copied.record(stream);
      copied.block(current_stream(src.device()));
    }
  }
  if (!target.is_same(dst)) copy_values(dst, target, "copy_");
}

}  // namespace

const Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) const {
  ACCEL_CHECK(src.defined(), "copy_", "the source tensor is undefined");
  autograd::check_inplace(*this, autograd::requires_grad(src), "copy_");
  if (impl_ == src.impl_ptr()) return *this;
  if (device() == src.device()) {
    copy_values(*this, src, "copy_");
  } else {
    copy_across_devices(*this, src, non_blocking);
  }
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

const Tensor& Tensor::fill_(const Scalar& value) const {
  autograd::check_inplace(*this, false, "fill_");
  ScalarBuffer buffer(value, dtype(), "fill_");
  backend(device()).fill(dtype(), make_loop<1>(*this, {}, "fill_"), buffer.data(),
                         current_stream(device()));
  storage()->bump_version();
  if (GradMode::is_enabled() && impl()->grad_fn) {
    // Filled values are constants: the previous history no longer matters.
    impl()->grad_fn.reset();
  }
  return *this;
}

const Tensor& Tensor::zero_() const { return fill_(0); }

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

Tensor to_device(const Tensor& a, Device device, bool non_blocking) {
  if (a.device() == device) return a;
  if (device.is_cuda()) cuda::check_device(device, "to");
  // A non-blocking copy to the host lands in pinned memory, so that it can be asynchronous.
  const bool pinned = non_blocking && device.is_cpu();
  Tensor out = empty(a.sizes(), a.options().device(device).pinned_memory(pinned));
  copy_across_devices(out, a, non_blocking);
  if (autograd::should_record(a)) {
    autograd::record("to", {a}, out, [from = a.device()](const Tensor& grad, GradInputs& in) {
      in[0] = grad.to(from);
    });
  }
  return out;
}

Tensor Tensor::to(ScalarType dtype, bool copy) const {
  Tensor out = to_dtype(*this, dtype);
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(Device device, bool non_blocking, bool copy) const {
  Tensor out = to_device(*this, device, non_blocking);
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(TensorOptions options, bool non_blocking, bool copy) const {
  Tensor out = to_dtype(to_device(*this, options.device(), non_blocking), options.dtype());
  return copy && out.is_same(*this) ? accel::clone(*this) : out;
}
Tensor Tensor::to(Device device, ScalarType dtype) const {
  return to_dtype(to_device(*this, device, false), dtype);
}

Tensor Tensor::pin_memory() const {
  ACCEL_CHECK(is_cpu(), "pin_memory", "only CPU tensors can be pinned, got one on {}", device());
  if (is_pinned()) return *this;
  Tensor out = empty(sizes(), options().pinned_memory(true));
  copy_values(out, *this, "pin_memory");
  return out;
}
Tensor Tensor::contiguous() const { return accel::contiguous(*this); }
Tensor Tensor::clone() const { return accel::clone(*this); }

}  // namespace accel
