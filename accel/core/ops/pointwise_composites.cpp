// Element-wise ops composed from the kernels' ops (add, mul, div, where, log, ...), whose
// gradients and devices they inherit: lerp, addcmul, addcdiv, square, reciprocal, nan_to_num,
// logit, xlogy, frac, deg2rad/rad2deg, float_power, logaddexp2, sinc, heaviside and isclose.
#include <cmath>
#include <limits>

#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;

void check_floating(const Tensor& a, const char* op) {
  ACCEL_CHECK(a.is_floating_point(), op, "expected a floating-point tensor, got {}",
              to_string(a.dtype()));
}

void check_lerp_operands(const Tensor& start, const Tensor& end, const Tensor* weight) {
  ACCEL_CHECK(start.is_floating_point(), "lerp", "expected floating-point tensors, got {}",
              to_string(start.dtype()));
  ACCEL_CHECK(end.dtype() == start.dtype() && (!weight || weight->dtype() == start.dtype()), "lerp",
              "expected start, end{} of one dtype, got {}, {}{}", weight ? " and weight" : "",
              to_string(start.dtype()), to_string(end.dtype()),
              weight ? fmt::format(" and {}", to_string(weight->dtype())) : "");
}

}  // namespace

Tensor lerp(const Tensor& start, const Tensor& end, const Scalar& weight) {
  check_lerp_operands(start, end, nullptr);
  const double w = weight.to_double();
  const Tensor diff = sub(end, start);
  return std::abs(w) < 0.5 ? add(start, diff, w) : sub(end, diff, 1.0 - w);
}

Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight) {
  check_lerp_operands(start, end, &weight);
  const Tensor diff = sub(end, start);
  return where(lt(abs(weight), 0.5), add(start, mul(weight, diff)),
               sub(end, mul(diff, neg(weight).add(1.0))));
}

Tensor addcmul(const Tensor& a, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  return add(a, mul(t1, t2), value);
}

Tensor addcdiv(const Tensor& a, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  ACCEL_CHECK(t1.is_floating_point() || t2.is_floating_point(), "addcdiv",
              "integer division is not supported (tensor1 {}, tensor2 {}); use addcmul with "
              "the reciprocal",
              to_string(t1.dtype()), to_string(t2.dtype()));
  return add(a, div(t1, t2), value);
}

Tensor square(const Tensor& a) {
  const Tensor x = a.dtype() == kBool ? a.to(kInt64) : a;  // as PyTorch: bool squares to int64
  return mul(x, x);
}

Tensor reciprocal(const Tensor& a) {
  return div(scalar_tensor(1.0, TensorOptions(kDefaultFloat).device(a.device())), a);
}

Tensor nan_to_num(const Tensor& a, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (!a.is_floating_point()) return a.clone();
  const double largest = largest_finite(a.dtype());
  const double inf = std::numeric_limits<double>::infinity();
  Tensor out = where(isnan(a), nan.value_or(0.0), a);
  out = where(eq(a, inf), posinf.value_or(largest), out);
  return where(eq(a, -inf), neginf.value_or(-largest), out);
}

Tensor logit(const Tensor& a, std::optional<double> eps) {
  const Tensor x = a.is_floating_point() ? a : a.to(kDefaultFloat);
  const Tensor p = eps ? clamp(x, *eps, 1.0 - *eps) : x;
  return log(div(p, neg(p).add(1.0)));
}

Tensor xlogy(const Tensor& x, const Tensor& y) {
  // The product where x == 0 is 0 already unless log(y) is infinite or NaN: only there is it
  // replaced, so x's gradient is log(y) at x == 0 too, as PyTorch's.
  const Tensor product = mul(x, log(y));
  return where(logical_and(logical_and(eq(x, 0), isnan(product)), logical_not(isnan(y))), 0,
               product);
}

Tensor frac(const Tensor& a) {
  check_floating(a, "frac");
  return sub(a, trunc(a));
}

Tensor deg2rad(const Tensor& a) { return mul(a.to(to_floating(a.dtype())), kPi / 180.0); }
Tensor rad2deg(const Tensor& a) { return mul(a.to(to_floating(a.dtype())), 180.0 / kPi); }

Tensor float_power(const Tensor& base, const Tensor& exponent) {
  return pow(base.to(kFloat64), exponent.to(kFloat64));
}
Tensor float_power(const Tensor& base, const Scalar& exponent) {
  return pow(base.to(kFloat64), exponent.to_double());
}

Tensor logaddexp2(const Tensor& a, const Tensor& b) {
  check_floating(a, "logaddexp2");
  check_floating(b, "logaddexp2");
  return div(logaddexp(mul(a, kLn2), mul(b, kLn2)), kLn2);
}

Tensor sinc(const Tensor& a) {
  const Tensor x = a.to(to_floating(a.dtype()));
  const Tensor at_zero = eq(x, 0);
  // The quotient is taken of 1 where x is 0, so that no NaN reaches the gradient there.
  const Tensor angle = mul(where(at_zero, 1.0, x), kPi);
  return where(at_zero, 1.0, div(sin(angle), angle));
}

Tensor heaviside(const Tensor& a, const Tensor& values) {
  ACCEL_CHECK(a.dtype() == values.dtype(), "heaviside",
              "expected input and values of one dtype, got {} and {}", to_string(a.dtype()),
              to_string(values.dtype()));
  NoGradGuard no_grad;  // a step: PyTorch has no derivative for it either
  return where(eq(a, 0), values, gt(a, 0).to(a.dtype()));
}

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  ACCEL_CHECK(a.dtype() == b.dtype(), "isclose", "expected tensors of one dtype, got {} and {}",
              to_string(a.dtype()), to_string(b.dtype()));
  ACCEL_CHECK(rtol >= 0 && atol >= 0, "isclose",
              "rtol and atol must be at least zero, got rtol={} and atol={}", rtol, atol);
  NoGradGuard no_grad;
  Tensor close = eq(a, b);
  if (equal_nan) close = logical_or(close, logical_and(isnan(a), isnan(b)));
  if (rtol == 0 && atol == 0) return close;
  const ScalarType type = to_floating(a.dtype());
  const Tensor x = a.to(type);
  const Tensor y = b.to(type);
  const Tensor error = abs(sub(x, y));
  return logical_or(close, logical_and(isfinite(error), le(error, add(mul(abs(y), rtol), atol))));
}

Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const {
  return accel::lerp(*this, end, weight);
}
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const {
  return accel::lerp(*this, end, weight);
}
Tensor Tensor::addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  return accel::addcmul(*this, t1, t2, value);
}
Tensor Tensor::addcdiv(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  return accel::addcdiv(*this, t1, t2, value);
}
Tensor Tensor::square() const { return accel::square(*this); }
Tensor Tensor::reciprocal() const { return accel::reciprocal(*this); }
Tensor Tensor::nan_to_num(std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) const {
  return accel::nan_to_num(*this, nan, posinf, neginf);
}
Tensor Tensor::logit(std::optional<double> eps) const { return accel::logit(*this, eps); }
Tensor Tensor::xlogy(const Tensor& other) const { return accel::xlogy(*this, other); }
Tensor Tensor::frac() const { return accel::frac(*this); }
Tensor Tensor::deg2rad() const { return accel::deg2rad(*this); }
Tensor Tensor::rad2deg() const { return accel::rad2deg(*this); }
Tensor Tensor::float_power(const Tensor& exponent) const {
  return accel::float_power(*this, exponent);
}
Tensor Tensor::float_power(const Scalar& exponent) const {
  return accel::float_power(*this, exponent);
}
Tensor Tensor::logaddexp2(const Tensor& other) const { return accel::logaddexp2(*this, other); }
Tensor Tensor::sinc() const { return accel::sinc(*this); }
Tensor Tensor::heaviside(const Tensor& values) const { return accel::heaviside(*this, values); }
Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return accel::isclose(*this, other, rtol, atol, equal_nan);
}

}  // namespace accel
