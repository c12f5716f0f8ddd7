// Tensor's arithmetic and comparison members and the operators: each forwards to the free
// function in ops.h (ops/binary.cpp).
#include "accel/core/ops.h"
#include "accel/core/ops/binary.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using std::optional;

Tensor Tensor::add(const Tensor& o, const Scalar& alpha) const {
  return accel::add(*this, o, alpha);
}
Tensor Tensor::add(const Scalar& o, const Scalar& alpha) const {
  return accel::add(*this, o, alpha);
}
Tensor Tensor::sub(const Tensor& o, const Scalar& alpha) const {
  return accel::sub(*this, o, alpha);
}
Tensor Tensor::sub(const Scalar& o, const Scalar& alpha) const {
  return accel::sub(*this, o, alpha);
}
Tensor Tensor::mul(const Tensor& o) const { return accel::mul(*this, o); }
Tensor Tensor::mul(const Scalar& o) const { return accel::mul(*this, o); }
Tensor Tensor::div(const Tensor& o) const { return accel::div(*this, o); }
Tensor Tensor::div(const Scalar& o) const { return accel::div(*this, o); }
Tensor Tensor::pow(const Tensor& e) const { return accel::pow(*this, e); }
Tensor Tensor::pow(const Scalar& e) const { return accel::pow(*this, e); }
Tensor Tensor::neg() const { return accel::neg(*this); }
Tensor Tensor::eq(const Tensor& o) const { return accel::eq(*this, o); }
Tensor Tensor::eq(const Scalar& o) const { return accel::eq(*this, o); }
Tensor Tensor::ne(const Tensor& o) const { return accel::ne(*this, o); }
Tensor Tensor::ne(const Scalar& o) const { return accel::ne(*this, o); }
Tensor Tensor::lt(const Tensor& o) const { return accel::lt(*this, o); }
Tensor Tensor::lt(const Scalar& o) const { return accel::lt(*this, o); }
Tensor Tensor::le(const Tensor& o) const { return accel::le(*this, o); }
Tensor Tensor::le(const Scalar& o) const { return accel::le(*this, o); }
Tensor Tensor::gt(const Tensor& o) const { return accel::gt(*this, o); }
Tensor Tensor::gt(const Scalar& o) const { return accel::gt(*this, o); }
Tensor Tensor::ge(const Tensor& o) const { return accel::ge(*this, o); }
Tensor Tensor::ge(const Scalar& o) const { return accel::ge(*this, o); }
Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator+(const Tensor& a, const Scalar& b) { return add(a, b); }
Tensor operator+(const Scalar& a, const Tensor& b) { return add(b, a); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator-(const Tensor& a, const Scalar& b) { return sub(a, b); }
Tensor operator-(const Scalar& a, const Tensor& b) { return add(neg(b), a); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator*(const Tensor& a, const Scalar& b) { return mul(a, b); }
Tensor operator*(const Scalar& a, const Tensor& b) { return mul(b, a); }
Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor operator/(const Tensor& a, const Scalar& b) { return div(a, b); }
Tensor operator/(const Scalar& a, const Tensor& b) {
  return div(scalar_tensor_for(b, a, result_type(b, a)), b);
}
Tensor operator-(const Tensor& a) { return neg(a); }
Tensor operator==(const Tensor& a, const Tensor& b) { return eq(a, b); }
Tensor operator==(const Tensor& a, const Scalar& b) { return eq(a, b); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return ne(a, b); }
Tensor operator!=(const Tensor& a, const Scalar& b) { return ne(a, b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return lt(a, b); }
Tensor operator<(const Tensor& a, const Scalar& b) { return lt(a, b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return le(a, b); }
Tensor operator<=(const Tensor& a, const Scalar& b) { return le(a, b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return gt(a, b); }
Tensor operator>(const Tensor& a, const Scalar& b) { return gt(a, b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return ge(a, b); }
Tensor operator>=(const Tensor& a, const Scalar& b) { return ge(a, b); }
Tensor& operator+=(Tensor& a, const Tensor& b) {
  a.add_(b);
  return a;
}
Tensor& operator+=(Tensor& a, const Scalar& b) {
  a.add_(b);
  return a;
}
Tensor& operator-=(Tensor& a, const Tensor& b) {
  a.sub_(b);
  return a;
}
Tensor& operator-=(Tensor& a, const Scalar& b) {
  a.sub_(b);
  return a;
}
Tensor& operator*=(Tensor& a, const Tensor& b) {
  a.mul_(b);
  return a;
}
Tensor& operator*=(Tensor& a, const Scalar& b) {
  a.mul_(b);
  return a;
}
Tensor& operator/=(Tensor& a, const Tensor& b) {
  a.div_(b);
  return a;
}
Tensor& operator/=(Tensor& a, const Scalar& b) {
  a.div_(b);
  return a;
}

}  // namespace accel
