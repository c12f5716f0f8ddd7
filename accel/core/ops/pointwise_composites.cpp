// Element-wise ops composed from the kernels' ops (add, mul, div, where, log, ...), whose
// gradients and devices they inherit: lerp, addcmul, addcdiv, square, reciprocal, nan_to_num,
// logit and xlogy.
#include <cmath>
#include <limits>

#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

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

}  // namespace accel
