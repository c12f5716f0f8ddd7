// atan2, hypot, logaddexp, fmod, remainder and floor_divide: binary kernels (formulas in
// kernels/common/binary_math.h) with broadcasting and type promotion as the arithmetic ops, and
// PyTorch's gradients composed of ops. atan2, hypot and logaddexp compute in floating types;
// the divisions keep integer types (a zero integer divisor is an error); floor_divide is not
// differentiable, as in PyTorch.
#include "accel/core/ops/binary.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;
using math::BinaryOp;

Tensor atan2(const Tensor& a, const Tensor& b) {
  Tensor out = binary_forward(BinaryOp::Atan2, a, b, 1.0, "atan2");
  if (autograd::should_record(a, b)) {
    autograd::record("atan2", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
                       const Tensor &y = sa.get(), &x = sb.get();
                       const Tensor scaled = grad / (y * y + x * x);
                       if (in.needs(0)) in[0] = ia.reduce(scaled * x);
                       if (in.needs(1)) in[1] = ib.reduce(-scaled * y);
                     });
  }
  return out;
}

Tensor hypot(const Tensor& a, const Tensor& b) {
  Tensor out = binary_forward(BinaryOp::Hypot, a, b, 1.0, "hypot");
  if (autograd::should_record(a, b)) {
    autograd::record(
        "hypot", {a, b}, out,
        [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a), sb = SavedTensor(b),
         so = SavedTensor(out)](const Tensor& grad, GradInputs& in) {
          const Tensor scaled = grad / so.get();
          if (in.needs(0)) in[0] = ia.reduce(scaled * sa.get());
          if (in.needs(1)) in[1] = ib.reduce(scaled * sb.get());
        });
  }
  return out;
}

Tensor logaddexp(const Tensor& a, const Tensor& b) {
  Tensor out = binary_forward(BinaryOp::LogAddExp, a, b, 1.0, "logaddexp");
  if (autograd::should_record(a, b)) {
    autograd::record("logaddexp", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
                       const Tensor &x = sa.get(), &y = sb.get();
                       if (in.needs(0)) in[0] = ia.reduce(grad / (exp(y - x) + 1));
                       if (in.needs(1)) in[1] = ib.reduce(grad / (exp(x - y) + 1));
                     });
  }
  return out;
}

namespace {

// fmod and remainder: the gradient is grad for a and -grad * quotient(a, b) for b, the quotient
// rounded the way the op's division rounds (toward zero for fmod, down for remainder).
Tensor remainder_op(BinaryOp op, const Tensor& a, const Tensor& b, const char* name) {
  Tensor out = binary_forward(op, a, b, 1.0, name);
  if (autograd::should_record(a, b)) {
    autograd::record(name, {a, b}, out,
                     [op, ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
                       if (in.needs(0)) in[0] = ia.reduce(grad);
                       if (!in.needs(1)) return;
                       const Tensor quotient = op == BinaryOp::Fmod
                                                   ? trunc(sa.get() / sb.get())
                                                   : floor_divide(sa.get(), sb.get());
                       in[1] = ib.reduce(-grad * quotient);
                     });
  }
  return out;
}

Tensor scalar_operand(const Tensor& a, const Scalar& b) {
  return scalar_tensor_for(a, b, result_type(a, b));
}

}  // namespace

Tensor fmod(const Tensor& a, const Tensor& b) { return remainder_op(BinaryOp::Fmod, a, b, "fmod"); }
Tensor fmod(const Tensor& a, const Scalar& b) { return fmod(a, scalar_operand(a, b)); }

Tensor remainder(const Tensor& a, const Tensor& b) {
  return remainder_op(BinaryOp::Remainder, a, b, "remainder");
}
Tensor remainder(const Tensor& a, const Scalar& b) { return remainder(a, scalar_operand(a, b)); }

Tensor floor_divide(const Tensor& a, const Tensor& b) {
  return binary_forward(BinaryOp::FloorDivide, a, b, 1.0, "floor_divide");
}
Tensor floor_divide(const Tensor& a, const Scalar& b) {
  return floor_divide(a, scalar_operand(a, b));
}

Tensor Tensor::atan2(const Tensor& other) const { return accel::atan2(*this, other); }
Tensor Tensor::hypot(const Tensor& other) const { return accel::hypot(*this, other); }
Tensor Tensor::logaddexp(const Tensor& other) const { return accel::logaddexp(*this, other); }
Tensor Tensor::fmod(const Tensor& other) const { return accel::fmod(*this, other); }
Tensor Tensor::fmod(const Scalar& other) const { return accel::fmod(*this, other); }
Tensor Tensor::remainder(const Tensor& other) const { return accel::remainder(*this, other); }
Tensor Tensor::remainder(const Scalar& other) const { return accel::remainder(*this, other); }
Tensor Tensor::floor_divide(const Tensor& other) const { return accel::floor_divide(*this, other); }
Tensor Tensor::floor_divide(const Scalar& other) const { return accel::floor_divide(*this, other); }

}  // namespace accel
