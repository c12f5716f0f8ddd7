// The element-wise unary ops (exp, log, ..., gelu, silu) and clamp with their gradients.
// Each op's forward and backward formulas sit side by side in kernels/common/unary_math.h;
// here every op is one fused forward kernel and one fused backward kernel.
#include <algorithm>
#include <limits>

#include "accel/core/ops/binary.h"
#include "accel/core/ops/op_support.h"
#include "accel/kernels/common/unary_math.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;
using math::UnaryOp;
using std::optional;

namespace {

struct UnaryTraits {
  const char* name;
  math::IntegerInputs integer_inputs;
  bool grad_uses_output;
};

UnaryTraits traits(UnaryOp op) {
  return math::visit(op, []<typename Op>() {
    return UnaryTraits{Op::name, Op::integer_inputs, Op::grad_uses_output};
  });
}

// The dtype op computes in for an input of dtype `in`, or an error naming op and dtype.
ScalarType compute_type(const UnaryTraits& t, ScalarType in) {
  if (is_floating_point(in)) return in;
  switch (t.integer_inputs) {
    case math::IntegerInputs::Keep:
      ACCEL_CHECK(in != kBool, t.name, "not supported for bool tensors");
      return in;
    case math::IntegerInputs::ToFloat:
      return kDefaultFloat;
    case math::IntegerInputs::Reject:
      break;
  }
  fail(t.name, "expected a floating point tensor, got {}", in);
}

// d(op)/dx * grad, from the saved input or output of op.
Tensor unary_backward(UnaryOp op, const Tensor& grad, const Tensor& saved) {
  const char* name = traits(op).name;
  const Tensor g = grad.to(saved.dtype());
  Tensor grad_in = empty(saved.sizes(), saved.options());
  backend(saved.device())
      .unary_backward(op, saved.dtype(), make_loop<3>(grad_in, {&g, &saved}, name),
                      current_stream(saved.device()));
  return grad_in;
}

Tensor unary(UnaryOp op, const Tensor& a) {
  const UnaryTraits t = traits(op);
  // Integer inputs never require grad, so their conversion records nothing.
  const Tensor x = a.to(compute_type(t, a.dtype()));
  Tensor out = empty(x.sizes(), x.options());
  backend(out.device())
      .unary(op, x.dtype(), make_loop<2>(out, {&x}, t.name), current_stream(out.device()));
  if (autograd::should_record(a)) {
    autograd::record(
        t.name, {a}, out,
        [op, saved = SavedTensor(t.grad_uses_output ? out : a)](
            const Tensor& grad, GradInputs& in) { in[0] = unary_backward(op, grad, saved.get()); });
  }
  return out;
}

// ---- clamp ----

// The dtype clamp computes in: a's dtype promoted with the given bounds (int64 tensor with a
// float bound gives float32, as torch.clamp).
ScalarType clamp_type(const Tensor& a, const optional<Scalar>& min, const optional<Scalar>& max,
                      const char* op) {
  ACCEL_CHECK(min || max, op, "at least one of min and max must be given");
  ScalarType t = a.dtype();
  if (min) t = promote_types(t, result_type(a, *min));
  if (max) t = promote_types(t, result_type(a, *max));
  return t;
}

// An integer bound of an integer clamp brought into the dtype's range, which leaves the result
// unchanged (torch.clamp(uint8, max=1000) is the identity; it must not wrap to 232).
Scalar within_range(const Scalar& bound, ScalarType dtype) {
  if (!bound.is_integral() || !is_integral(dtype, false)) return bound;
  const auto value = bound.to<int64_t>();
  switch (dtype) {
    case kInt32:
      return std::clamp<int64_t>(value, std::numeric_limits<int32_t>::min(),
                                 std::numeric_limits<int32_t>::max());
    case kUInt8:
      return std::clamp<int64_t>(value, 0, std::numeric_limits<uint8_t>::max());
    default:
      return bound;
  }
}

// The bounds stored as `dtype`, for the kernels.
struct ClampBounds {
  optional<ScalarBuffer> min, max;
  ClampBounds(const optional<Scalar>& lo, const optional<Scalar>& hi, ScalarType dtype,
              const char* op) {
    if (lo) min.emplace(within_range(*lo, dtype), dtype, op);
    if (hi) max.emplace(within_range(*hi, dtype), dtype, op);
  }
  const void* min_ptr() { return min ? min->data() : nullptr; }
  const void* max_ptr() { return max ? max->data() : nullptr; }
};

// out = clamp(x); out and x (of the same dtype) may be the same tensor.
void clamp_into(const Tensor& out, const Tensor& x, const optional<Scalar>& min,
                const optional<Scalar>& max, const char* op) {
  ClampBounds bounds(min, max, x.dtype(), op);
  backend(out.device())
      .clamp(x.dtype(), make_loop<2>(out, {&x}, op), bounds.min_ptr(), bounds.max_ptr(),
             current_stream(out.device()));
}

// grad where min < x < max, else 0.
Tensor clamp_backward(const Tensor& grad, const Tensor& x, const optional<Scalar>& min,
                      const optional<Scalar>& max) {
  const Tensor g = grad.to(x.dtype());
  Tensor grad_in = empty(x.sizes(), x.options());
  ClampBounds bounds(min, max, x.dtype(), "clamp_backward");
  backend(x.device())
      .clamp_backward(x.dtype(), make_loop<3>(grad_in, {&g, &x}, "clamp"), bounds.min_ptr(),
                      bounds.max_ptr(), current_stream(x.device()));
  return grad_in;
}

}  // namespace

Tensor exp(const Tensor& a) { return unary(UnaryOp::Exp, a); }
Tensor tan(const Tensor& a) { return unary(UnaryOp::Tan, a); }
Tensor asin(const Tensor& a) { return unary(UnaryOp::Asin, a); }
Tensor acos(const Tensor& a) { return unary(UnaryOp::Acos, a); }
Tensor atan(const Tensor& a) { return unary(UnaryOp::Atan, a); }
Tensor sinh(const Tensor& a) { return unary(UnaryOp::Sinh, a); }
Tensor cosh(const Tensor& a) { return unary(UnaryOp::Cosh, a); }
Tensor asinh(const Tensor& a) { return unary(UnaryOp::Asinh, a); }
Tensor acosh(const Tensor& a) { return unary(UnaryOp::Acosh, a); }
Tensor atanh(const Tensor& a) { return unary(UnaryOp::Atanh, a); }
Tensor log2(const Tensor& a) { return unary(UnaryOp::Log2, a); }
Tensor log10(const Tensor& a) { return unary(UnaryOp::Log10, a); }
Tensor exp2(const Tensor& a) { return unary(UnaryOp::Exp2, a); }
Tensor erfc(const Tensor& a) { return unary(UnaryOp::Erfc, a); }
Tensor erfinv(const Tensor& a) { return unary(UnaryOp::Erfinv, a); }
Tensor lgamma(const Tensor& a) { return unary(UnaryOp::Lgamma, a); }
Tensor digamma(const Tensor& a) { return unary(UnaryOp::Digamma, a); }
Tensor log(const Tensor& a) { return unary(UnaryOp::Log, a); }
Tensor sqrt(const Tensor& a) { return unary(UnaryOp::Sqrt, a); }
Tensor rsqrt(const Tensor& a) { return unary(UnaryOp::Rsqrt, a); }
Tensor abs(const Tensor& a) { return unary(UnaryOp::Abs, a); }
Tensor sin(const Tensor& a) { return unary(UnaryOp::Sin, a); }
Tensor cos(const Tensor& a) { return unary(UnaryOp::Cos, a); }
Tensor tanh(const Tensor& a) { return unary(UnaryOp::Tanh, a); }
Tensor sigmoid(const Tensor& a) { return unary(UnaryOp::Sigmoid, a); }
Tensor relu(const Tensor& a) { return unary(UnaryOp::Relu, a); }
Tensor silu(const Tensor& a) { return unary(UnaryOp::Silu, a); }
Tensor log1p(const Tensor& a) { return unary(UnaryOp::Log1p, a); }
Tensor expm1(const Tensor& a) { return unary(UnaryOp::Expm1, a); }
Tensor erf(const Tensor& a) { return unary(UnaryOp::Erf, a); }
Tensor floor(const Tensor& a) { return unary(UnaryOp::Floor, a); }
Tensor ceil(const Tensor& a) { return unary(UnaryOp::Ceil, a); }
Tensor round(const Tensor& a) { return unary(UnaryOp::Round, a); }
Tensor trunc(const Tensor& a) { return unary(UnaryOp::Trunc, a); }
Tensor sign(const Tensor& a) { return unary(UnaryOp::Sign, a); }

Tensor gelu(const Tensor& a, std::string_view approximate) {
  ACCEL_CHECK(approximate == "none" || approximate == "tanh", "gelu",
              "approximate must be \"none\" or \"tanh\", got \"{}\"", approximate);
  return unary(approximate == "none" ? UnaryOp::Gelu : UnaryOp::GeluTanh, a);
}

Tensor clamp(const Tensor& a, optional<Scalar> min, optional<Scalar> max) {
  const ScalarType dtype = clamp_type(a, min, max, "clamp");
  const Tensor x = a.to(dtype);  // only integer inputs convert, and they never require grad
  Tensor out = empty(x.sizes(), x.options());
  clamp_into(out, x, min, max, "clamp");
  if (autograd::should_record(a)) {
    autograd::record("clamp", {a}, out,
                     [sa = SavedTensor(a), min, max](const Tensor& grad, GradInputs& in) {
                       in[0] = clamp_backward(grad, sa.get(), min, max);
                     });
  }
  return out;
}

Tensor clip(const Tensor& a, optional<Scalar> min, optional<Scalar> max) {
  return clamp(a, std::move(min), std::move(max));
}

const Tensor& Tensor::clamp_(optional<Scalar> min, optional<Scalar> max) const {
  const ScalarType dtype = clamp_type(*this, min, max, "clamp_");
  ACCEL_CHECK(dtype == this->dtype(), "clamp_",
              "result type {} can't be cast to the desired output type {}", dtype, this->dtype());
  autograd::check_inplace(*this, false, "clamp_");
  if (autograd::should_record(*this)) {
    // clamp saves its input for backward: give it a copy, since *this is about to change.
    adopt_result(*this, accel::clamp(accel::clone(*this), min, max));
    return *this;
  }
  clamp_into(*this, *this, min, max, "clamp_");
  storage()->bump_version();
  return *this;
}

Tensor Tensor::exp() const { return accel::exp(*this); }
Tensor Tensor::erfc() const { return accel::erfc(*this); }
Tensor Tensor::erfinv() const { return accel::erfinv(*this); }
Tensor Tensor::lgamma() const { return accel::lgamma(*this); }
Tensor Tensor::digamma() const { return accel::digamma(*this); }
Tensor Tensor::tan() const { return accel::tan(*this); }
Tensor Tensor::asin() const { return accel::asin(*this); }
Tensor Tensor::acos() const { return accel::acos(*this); }
Tensor Tensor::atan() const { return accel::atan(*this); }
Tensor Tensor::sinh() const { return accel::sinh(*this); }
Tensor Tensor::cosh() const { return accel::cosh(*this); }
Tensor Tensor::asinh() const { return accel::asinh(*this); }
Tensor Tensor::acosh() const { return accel::acosh(*this); }
Tensor Tensor::atanh() const { return accel::atanh(*this); }
Tensor Tensor::log2() const { return accel::log2(*this); }
Tensor Tensor::log10() const { return accel::log10(*this); }
Tensor Tensor::exp2() const { return accel::exp2(*this); }
Tensor Tensor::log() const { return accel::log(*this); }
Tensor Tensor::sqrt() const { return accel::sqrt(*this); }
Tensor Tensor::rsqrt() const { return accel::rsqrt(*this); }
Tensor Tensor::abs() const { return accel::abs(*this); }
Tensor Tensor::sin() const { return accel::sin(*this); }
Tensor Tensor::cos() const { return accel::cos(*this); }
Tensor Tensor::tanh() const { return accel::tanh(*this); }
Tensor Tensor::sigmoid() const { return accel::sigmoid(*this); }
Tensor Tensor::relu() const { return accel::relu(*this); }
Tensor Tensor::gelu(std::string_view approximate) const { return accel::gelu(*this, approximate); }
Tensor Tensor::silu() const { return accel::silu(*this); }
Tensor Tensor::log1p() const { return accel::log1p(*this); }
Tensor Tensor::expm1() const { return accel::expm1(*this); }
Tensor Tensor::erf() const { return accel::erf(*this); }
Tensor Tensor::floor() const { return accel::floor(*this); }
Tensor Tensor::ceil() const { return accel::ceil(*this); }
Tensor Tensor::round() const { return accel::round(*this); }
Tensor Tensor::trunc() const { return accel::trunc(*this); }
Tensor Tensor::sign() const { return accel::sign(*this); }
Tensor Tensor::clamp(optional<Scalar> min, optional<Scalar> max) const {
  return accel::clamp(*this, min, max);
}

}  // namespace accel
