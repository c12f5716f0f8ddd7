// Logical ops, NaN/infinity tests and any/all, composed from comparisons, where and sums (so
// every device has them): each takes any dtype, nonzero counting as true, and gives bool.
#include <limits>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel {
namespace {

Tensor truth(const Tensor& a, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  return a.dtype() == kBool ? a : ne(a, 0);
}

void check_bool_operands(const Tensor& a, const Tensor& b, const char* op) {
  ACCEL_CHECK(a.defined() && b.defined() && a.dtype() == kBool && b.dtype() == kBool, op,
              "supported on bool tensors only (use logical_and/or/xor otherwise), got {} and {}",
              a.defined() ? to_string(a.dtype()) : "undefined",
              b.defined() ? to_string(b.dtype()) : "undefined");
}

}  // namespace

Tensor logical_not(const Tensor& a) { return eq(truth(a, "logical_not"), false); }
Tensor logical_and(const Tensor& a, const Tensor& b) {
  return where(truth(a, "logical_and"), truth(b, "logical_and"), false);
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return where(truth(a, "logical_or"), true, truth(b, "logical_or"));
}
Tensor logical_xor(const Tensor& a, const Tensor& b) {
  return ne(truth(a, "logical_xor"), truth(b, "logical_xor"));
}

Tensor isnan(const Tensor& a) {
  ACCEL_CHECK(a.defined(), "isnan", "the tensor is undefined");
  return ne(a, a);
}
Tensor isinf(const Tensor& a) {
  ACCEL_CHECK(a.defined(), "isinf", "the tensor is undefined");
  if (!a.is_floating_point()) return zeros(a.sizes(), TensorOptions(kBool).device(a.device()));
  return eq(abs(a), std::numeric_limits<double>::infinity());
}
Tensor isfinite(const Tensor& a) {
  ACCEL_CHECK(a.defined(), "isfinite", "the tensor is undefined");
  if (!a.is_floating_point()) return ones(a.sizes(), TensorOptions(kBool).device(a.device()));
  return eq(a - a, 0);  // inf - inf and NaN - NaN are NaN
}

Tensor any(const Tensor& a) { return gt(sum(truth(a, "any")), 0); }
Tensor any(const Tensor& a, int64_t dim, bool keepdim) {
  return gt(sum(truth(a, "any"), {dim}, keepdim), 0);
}
Tensor all(const Tensor& a) { return eq(sum(logical_not(a)), 0); }
Tensor all(const Tensor& a, int64_t dim, bool keepdim) {
  return eq(sum(logical_not(a), {dim}, keepdim), 0);
}

Tensor operator~(const Tensor& a) {
  ACCEL_CHECK(a.defined() && a.dtype() == kBool, "bitwise_not",
              "~ is supported on bool tensors only (use logical_not otherwise), got {}",
              a.defined() ? to_string(a.dtype()) : "an undefined tensor");
  return logical_not(a);
}
Tensor operator&(const Tensor& a, const Tensor& b) {
  check_bool_operands(a, b, "bitwise_and");
  return logical_and(a, b);
}
Tensor operator|(const Tensor& a, const Tensor& b) {
  check_bool_operands(a, b, "bitwise_or");
  return logical_or(a, b);
}
Tensor operator^(const Tensor& a, const Tensor& b) {
  check_bool_operands(a, b, "bitwise_xor");
  return logical_xor(a, b);
}

Tensor Tensor::logical_not() const { return accel::logical_not(*this); }
Tensor Tensor::isnan() const { return accel::isnan(*this); }
Tensor Tensor::isinf() const { return accel::isinf(*this); }
Tensor Tensor::isfinite() const { return accel::isfinite(*this); }
Tensor Tensor::any() const { return accel::any(*this); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return accel::any(*this, dim, keepdim); }
Tensor Tensor::all() const { return accel::all(*this); }
Tensor Tensor::all(int64_t dim, bool keepdim) const { return accel::all(*this, dim, keepdim); }

}  // namespace accel
