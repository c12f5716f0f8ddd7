// Element-wise binary ops (add, sub, mul, div, pow, maximum, minimum, comparisons) with
// broadcasting, type promotion, their in-place forms, and their gradients. atan2, hypot,
// logaddexp, fmod, remainder and floor_divide share the forward: ops/binary_functions.cpp.
#include "accel/core/ops/binary.h"

#include <cmath>
#include <limits>

#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;
using math::BinaryOp;

namespace {

// The dtype the kernel computes in: the promoted type (floating for true division).
ScalarType compute_type(BinaryOp op, ScalarType promoted) {
  const bool floating_only = op == BinaryOp::Div || op == BinaryOp::Atan2 ||
                             op == BinaryOp::Hypot || op == BinaryOp::LogAddExp;
  return floating_only ? to_floating(promoted) : promoted;
}

Tensor as_type(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  NoGradGuard no_grad;  // conversion of an operand, not a recorded op
  return t.to(dtype);
}

void run_kernel(BinaryOp op, ScalarType compute, const Tensor& out, const Tensor& a,
                const Tensor& b, double alpha, const char* name) {
  backend(out.device())
      .binary(op, compute, make_loop<3>(out, {&a, &b}, name), alpha, current_stream(out.device()));
}

// PyTorch's refusals of bool subtraction (`-` on masks is almost always a mistake for ^ or ~).
void check_operand_types(BinaryOp op, ScalarType a, ScalarType b, const char* name) {
  if (op == BinaryOp::Fmod || op == BinaryOp::Remainder || op == BinaryOp::FloorDivide) {
    ACCEL_CHECK(a != kBool || b != kBool, name, "not supported for two bool tensors");
  }
  if (op != BinaryOp::Sub) return;
  ACCEL_CHECK(a != kBool || b != kBool, name,
              "subtraction of two bool tensors is not supported; use ^ (logical_xor) instead");
  ACCEL_CHECK(a != kBool && b != kBool, name,
              "subtraction with a bool tensor is not supported; to invert a mask use ~ "
              "(logical_not) instead");
}

}  // namespace

Tensor binary_forward(BinaryOp op, const Tensor& a, const Tensor& b, double alpha,
                      const char* name) {
  check_same_device(a, b, name);
  check_operand_types(op, a.dtype(), b.dtype(), name);
  const ScalarType compute = compute_type(op, result_type(a, b));
  const ScalarType out_type = math::is_comparison(op) ? kBool : compute;
  if (a.dtype() == compute && b.dtype() == compute && a.is_contiguous() && b.is_contiguous() &&
      a.sizes() == b.sizes()) {
    // The common case (same shape, dtype and layout) needs no broadcast geometry: one flat
    // loop over all elements.
    const Device device = a.device();
    Tensor out = empty(a.sizes(), TensorOptions(out_type).device(device));
    const int64_t n = a.numel();
    const int64_t out_size = out.element_size(), in_size = a.element_size();
    backend(device).binary(
        op, compute,
        Loop<3>({n},
                {static_cast<char*>(out.data_ptr()), static_cast<char*>(a.data_ptr()),
                 static_cast<char*>(b.data_ptr())},
                {IntArrayRef{1}, IntArrayRef{1}, IntArrayRef{1}}, {out_size, in_size, in_size}),
        alpha, current_stream(device));
    return out;
  }
  const DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), name);
  Tensor out = empty(shape, TensorOptions(out_type).device(a.device()));
  run_kernel(op, compute, out, as_type(a, compute), as_type(b, compute), alpha, name);
  return out;
}

namespace {

// `value` as the operand of an op computing in `type`, converted the way PyTorch converts such
// a number, never an error: an integer wraps into an integer type (uint8 + 300 adds 44, uint8 >
// 300 compares with 44), a float beyond a float type's range becomes an infinity (float32 *
// 1e300 is inf). The result converts to `type` exactly.
Scalar wrapped_to(const Scalar& value, ScalarType type) {
  if (value.is_bool()) return value;
  if (value.is_integral() && type == kInt32) return static_cast<int32_t>(value.to<int64_t>());
  if (value.is_integral() && type == kUInt8) return static_cast<uint8_t>(value.to<int64_t>());
  if (type != kFloat32 && type != kFloat16 && type != kBFloat16) return value;
  // float32's largest finite value plus half its spacing there: doubles from here on round to
  // infinity (a cast would be undefined behaviour).
  constexpr double float_overflow = 3.4028235677973366e38;
  const double number = value.to_double();
  const float single = std::fabs(number) >= float_overflow
                           ? std::copysign(std::numeric_limits<float>::infinity(), number)
                           : static_cast<float>(number);
  if (type == kFloat16) return static_cast<float>(Half(single));
  if (type == kBFloat16) return static_cast<float>(BFloat16(single));
  return single;
}

}  // namespace

Tensor scalar_tensor_for(const Tensor& a, const Scalar& b, ScalarType dtype) {
  return full({}, wrapped_to(b, dtype), TensorOptions(dtype).device(a.device()));
}

namespace {

Tensor binary_forward(BinaryOp op, const Tensor& a, const Scalar& b, double alpha,
                      const char* name) {
  const ScalarType compute = compute_type(op, result_type(a, b));
  return binary_forward(op, a, scalar_tensor_for(a, b, compute), alpha, name);
}

// out = self (op) other written into self: directly when no conversion, broadcast of self
// or autograd is involved, else through an out-of-place result whose history self adopts.
const Tensor& binary_inplace(BinaryOp op, const Tensor& self, const Tensor& other, double alpha,
                             const char* name) {
  check_same_device(self, other, name);
  check_operand_types(op, self.dtype(), other.dtype(), name);
  autograd::check_inplace(self, autograd::requires_grad(other), name);
  const ScalarType compute = compute_type(op, result_type(self, other));
  ACCEL_CHECK(compute == self.dtype() || promote_types(compute, self.dtype()) == self.dtype(), name,
              "result type {} can't be cast to the desired output type {}", compute, self.dtype());
  const bool recording = autograd::should_record(self, other);
  if (!recording && compute == self.dtype() && other.dtype() == compute) {
    broadcast_strides(other, self.sizes(), name);  // other must broadcast to self's shape
    run_kernel(op, compute, self, self, other, alpha, name);
    self.storage()->bump_version();
    return self;
  }
  // The recorded op may save its first input for backward: give it a copy of self's current
  // values, since self is about to be overwritten.
  const Tensor source = recording ? accel::clone(self) : self;
  Tensor result;
  switch (op) {
    case BinaryOp::Add:
      result = accel::add(source, other, alpha);
      break;
    case BinaryOp::Sub:
      result = accel::sub(source, other, alpha);
      break;
    case BinaryOp::Mul:
      result = accel::mul(source, other);
      break;
    case BinaryOp::Div:
      result = accel::div(source, other);
      break;
    default:
      fail(name, "has no in-place form");
  }
  ACCEL_CHECK(result.sizes() == self.sizes(), name,
              "output with shape {} doesn't match the broadcast shape {}", self.sizes(),
              result.sizes());
  adopt_result(self, result);
  return self;
}

}  // namespace

void adopt_result(const Tensor& self, const Tensor& result) {
  {
    NoGradGuard no_grad;
    self.copy_(result);  // bumps the version
  }
  if (result.grad_fn()) autograd::set_history(self, result.grad_fn(), result.output_nr());
}

// ---- add / sub ----

Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  Tensor out = binary_forward(BinaryOp::Add, a, b, alpha.to_double(), "add");
  if (autograd::should_record(a, b)) {
    autograd::record("add", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), alpha = alpha.to_double()](
                         const Tensor& grad, GradInputs& in) {
                       if (in.needs(0)) in[0] = ia.reduce(grad);
                       if (in.needs(1)) in[1] = ib.reduce(alpha == 1 ? grad : grad * alpha);
                     });
  }
  return out;
}

Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  Tensor out = binary_forward(BinaryOp::Sub, a, b, alpha.to_double(), "sub");
  if (autograd::should_record(a, b)) {
    autograd::record("sub", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), alpha = alpha.to_double()](
                         const Tensor& grad, GradInputs& in) {
                       if (in.needs(0)) in[0] = ia.reduce(grad);
                       if (in.needs(1)) in[1] = ib.reduce(grad * -alpha);
                     });
  }
  return out;
}

Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  Tensor out = binary_forward(BinaryOp::Add, a, b, alpha.to_double(), "add");
  if (autograd::should_record(a)) {
    autograd::record("add", {a}, out, [ia = InputInfo(a)](const Tensor& grad, GradInputs& in) {
      in[0] = ia.reduce(grad);
    });
  }
  return out;
}

Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  check_operand_types(BinaryOp::Sub, a.dtype(), b.natural_type(), "sub");
  return add(a, b, -alpha.to_double());
}

// ---- mul / div ----

Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = binary_forward(BinaryOp::Mul, a, b, 1.0, "mul");
  if (autograd::should_record(a, b)) {
    autograd::record("mul", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
                       if (in.needs(0)) in[0] = ia.reduce(grad * sb.get());
                       if (in.needs(1)) in[1] = ib.reduce(grad * sa.get());
                     });
  }
  return out;
}

Tensor mul(const Tensor& a, const Scalar& b) {
  Tensor out = binary_forward(BinaryOp::Mul, a, b, 1.0, "mul");
  if (autograd::should_record(a)) {
    autograd::record("mul", {a}, out, [ia = InputInfo(a), b](const Tensor& grad, GradInputs& in) {
      in[0] = ia.reduce(grad * b);
    });
  }
  return out;
}

Tensor div(const Tensor& a, const Tensor& b) {
  Tensor out = binary_forward(BinaryOp::Div, a, b, 1.0, "div");
  if (autograd::should_record(a, b)) {
    autograd::record("div", {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
                       const Tensor& b = sb.get();
                       if (in.needs(0)) in[0] = ia.reduce(grad / b);
                       if (in.needs(1)) in[1] = ib.reduce(-grad * sa.get() / (b * b));
                     });
  }
  return out;
}

Tensor div(const Tensor& a, const Scalar& b) {
  Tensor out = binary_forward(BinaryOp::Div, a, b, 1.0, "div");
  if (autograd::should_record(a)) {
    autograd::record("div", {a}, out, [ia = InputInfo(a), b](const Tensor& grad, GradInputs& in) {
      in[0] = ia.reduce(grad / b);
    });
  }
  return out;
}

// ---- pow ----

Tensor pow(const Tensor& base, const Tensor& exponent) {
  Tensor out = binary_forward(BinaryOp::Pow, base, exponent, 1.0, "pow");
  if (autograd::should_record(base, exponent)) {
    autograd::record(
        "pow", {base, exponent}, out,
        [ib = InputInfo(base), ie = InputInfo(exponent), sb = SavedTensor(base),
         se = SavedTensor(exponent), so = SavedTensor(out)](const Tensor& grad, GradInputs& in) {
          const Tensor& b = sb.get();
          const Tensor& e = se.get();
          if (in.needs(0)) {
            // d/db b^e = e * b^(e-1); 0 where e == 0 (also at b == 0).
            in[0] = ib.reduce(where(e == 0, 0.0, grad * e * pow(b, e - 1)));
          }
          if (in.needs(1)) {
            // d/de b^e = b^e * log(b); 0 where b == 0 and e >= 0 (PyTorch's convention).
            in[1] = ie.reduce(where((b == 0) * (e >= 0), 0.0, grad * so.get() * log(b)));
          }
        });
  }
  return out;
}

Tensor pow(const Tensor& base, const Scalar& exponent) {
  ACCEL_CHECK(
      is_floating_point(base.dtype()) || exponent.is_floating_point() || exponent.to_double() >= 0,
      "pow", "integers to negative integer powers are not allowed ({} tensor to the power {})",
      base.dtype(), exponent.to_double());
  Tensor out = binary_forward(BinaryOp::Pow, base, exponent, 1.0, "pow");
  if (autograd::should_record(base)) {
    autograd::record("pow", {base}, out,
                     [ib = InputInfo(base), sb = SavedTensor(base), exponent](const Tensor& grad,
                                                                              GradInputs& in) {
                       const double e = exponent.to_double();
                       in[0] = e == 0 ? zeros_like(grad).to(ib.dtype)
                                      : ib.reduce(grad * e * pow(sb.get(), e - 1));
                     });
  }
  return out;
}

Tensor pow(const Scalar& base, const Tensor& exponent) {
  const ScalarType dtype = result_type(exponent, base);
  return pow(scalar_tensor_for(exponent, base, dtype), exponent);
}

// ---- maximum / minimum: ties split the gradient equally, as in PyTorch ----

namespace {
Tensor extremum(BinaryOp op, const Tensor& a, const Tensor& b, const char* name) {
  Tensor out = binary_forward(op, a, b, 1.0, name);
  if (autograd::should_record(a, b)) {
    autograd::record(name, {a, b}, out,
                     [ia = InputInfo(a), ib = InputInfo(b), sa = SavedTensor(a),
                      sb = SavedTensor(b), op](const Tensor& grad, GradInputs& in) {
                       const Tensor& a = sa.get();
                       const Tensor& b = sb.get();
                       const Tensor a_wins = op == BinaryOp::Maximum ? a > b : a < b;
                       const Tensor tie = a == b;
                       const Tensor share = where(tie, grad / 2, grad);
                       if (in.needs(0)) in[0] = ia.reduce(where(a_wins + tie, share, 0.0));
                       if (in.needs(1)) in[1] = ib.reduce(where(a_wins, 0.0, share));
                     });
  }
  return out;
}
}  // namespace

Tensor maximum(const Tensor& a, const Tensor& b) {
  return extremum(BinaryOp::Maximum, a, b, "maximum");
}
Tensor minimum(const Tensor& a, const Tensor& b) {
  return extremum(BinaryOp::Minimum, a, b, "minimum");
}

Tensor neg(const Tensor& a) {
  ACCEL_CHECK(a.dtype() != kBool, "neg", "negation of a bool tensor is not supported");
  return mul(a, -1);
}

// ---- comparisons ----

#define ACCEL_COMPARISON(name, Op)                         \
  Tensor name(const Tensor& a, const Tensor& b) {          \
    return binary_forward(BinaryOp::Op, a, b, 1.0, #name); \
  }                                                        \
  Tensor name(const Tensor& a, const Scalar& b) {          \
    return binary_forward(BinaryOp::Op, a, b, 1.0, #name); \
  }
ACCEL_COMPARISON(eq, Eq)
ACCEL_COMPARISON(ne, Ne)
ACCEL_COMPARISON(lt, Lt)
ACCEL_COMPARISON(le, Le)
ACCEL_COMPARISON(gt, Gt)
ACCEL_COMPARISON(ge, Ge)
#undef ACCEL_COMPARISON

// ---- in place ----

const Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) const {
  return binary_inplace(BinaryOp::Add, *this, other, alpha.to_double(), "add_");
}
const Tensor& Tensor::add_(const Scalar& other, const Scalar& alpha) const {
  return add_(scalar_tensor_for(*this, other, result_type(*this, other)), alpha);
}
const Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) const {
  return binary_inplace(BinaryOp::Sub, *this, other, alpha.to_double(), "sub_");
}
const Tensor& Tensor::sub_(const Scalar& other, const Scalar& alpha) const {
  check_operand_types(BinaryOp::Sub, dtype(), other.natural_type(), "sub_");
  return sub_(scalar_tensor_for(*this, other, result_type(*this, other)), alpha);
}
const Tensor& Tensor::mul_(const Tensor& other) const {
  return binary_inplace(BinaryOp::Mul, *this, other, 1.0, "mul_");
}
const Tensor& Tensor::mul_(const Scalar& other) const {
  return mul_(scalar_tensor_for(*this, other, result_type(*this, other)));
}
const Tensor& Tensor::div_(const Tensor& other) const {
  return binary_inplace(BinaryOp::Div, *this, other, 1.0, "div_");
}
const Tensor& Tensor::div_(const Scalar& other) const {
  return div_(
      scalar_tensor_for(*this, other, compute_type(BinaryOp::Div, result_type(*this, other))));
}

}  // namespace accel
