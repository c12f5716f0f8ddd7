// Selection by a bool condition: where (tensor and number forms) and masked_fill, with
// broadcasting over condition and values and their gradients (the selected-from side gets
// the gradient, the other side zero).
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;

namespace {

void check_condition(const Tensor& condition, const Tensor& values, const char* op,
                     const char* what) {
  ACCEL_CHECK(condition.dtype() == kBool, op, "expected {} to be a bool tensor, got dtype {}", what,
              condition.dtype());
  check_same_device(condition, values, op);
}

// out = condition == fill_when ? value : x, broadcast over condition and x, computed in
// `dtype`; records nothing.
Tensor fill_where_forward(const Tensor& condition, const Tensor& x, const Scalar& value,
                          bool fill_when, ScalarType dtype, const char* op) {
  NoGradGuard no_grad;  // the conversion of x is part of this op, not a recorded one
  const Tensor xs = x.to(dtype);
  Tensor out = empty(broadcast_shapes(condition.sizes(), x.sizes(), op),
                     TensorOptions(dtype).device(x.device()));
  ScalarBuffer v(value, dtype, op);
  backend(out.device())
      .fill_where(dtype, make_loop<3>(out, {&condition, &xs}, op), v.data(), fill_when,
                  current_stream(out.device()));
  return out;
}

// fill_where_forward and its gradient: x's gradient is grad with the filled places zeroed.
Tensor fill_where(const Tensor& condition, const Tensor& x, const Scalar& value, bool fill_when,
                  ScalarType dtype, const char* op) {
  Tensor out = fill_where_forward(condition, x, value, fill_when, dtype, op);
  if (autograd::should_record(x)) {
    autograd::record(
        op, {x}, out,
        [ix = InputInfo(x), sc = SavedTensor(condition), fill_when, op](const Tensor& grad,
                                                                        GradInputs& in) {
          in[0] = ix.reduce(fill_where_forward(sc.get(), grad, 0, fill_when, grad.dtype(), op));
        });
  }
  return out;
}

}  // namespace

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  check_condition(condition, a, "where", "condition");
  check_same_device(a, b, "where");
  const ScalarType dtype = result_type(a, b);
  Tensor out;
  {
    NoGradGuard no_grad;  // operand conversions are part of this op
    const Tensor as = a.to(dtype), bs = b.to(dtype);
    out = empty(broadcast_shapes(broadcast_shapes(condition.sizes(), a.sizes(), "where"), b.sizes(),
                                 "where"),
                TensorOptions(dtype).device(a.device()));
    backend(out.device())
        .where(dtype, make_loop<4>(out, {&condition, &as, &bs}, "where"),
               current_stream(out.device()));
  }
  if (autograd::should_record(a, b)) {
    autograd::record("where", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sc = SavedTensor(condition)](
                         const Tensor& grad, GradInputs& in) {
                       const Tensor& c = sc.get();
                       if (in.needs(0)) in[0] = ia.reduce(where(c, grad, 0));
                       if (in.needs(1)) in[1] = ib.reduce(where(c, 0, grad));
                     });
  }
  return out;
}

Tensor where(const Tensor& condition, const Tensor& a, const Scalar& b) {
  check_condition(condition, a, "where", "condition");
  return fill_where(condition, a, b, false, result_type(a, b), "where");
}

Tensor where(const Tensor& condition, const Scalar& a, const Tensor& b) {
  check_condition(condition, b, "where", "condition");
  return fill_where(condition, b, a, true, result_type(b, a), "where");
}

Tensor masked_fill(const Tensor& a, const Tensor& mask, const Scalar& value) {
  check_condition(mask, a, "masked_fill", "mask");
  return fill_where(mask, a, value, true, a.dtype(), "masked_fill");
}

Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& value) const {
  return accel::masked_fill(*this, mask, value);
}
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return accel::where(condition, *this, other);
}

}  // namespace accel
