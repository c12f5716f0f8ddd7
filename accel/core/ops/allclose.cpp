// Whole-tensor comparisons returning a C++ bool: allclose (broadcasting, same dtype, as
// torch.allclose) and equal (same sizes and values, any dtypes). Not differentiable.
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

// Whether a and b, broadcast together and of one dtype, are close everywhere.
bool all_close(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
               const char* op) {
  check_same_device(a, b, op);
  NoGradGuard no_grad;
  // A loop that reads both operands broadcast together (and writes neither).
  const DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), op);
  const DimVector a_strides = broadcast_strides(a, shape, op);
  const DimVector b_strides = broadcast_strides(b, shape, op);
  const Loop<2> loop(shape, {static_cast<char*>(a.data_ptr()), static_cast<char*>(b.data_ptr())},
                     {IntArrayRef(a_strides), IntArrayRef(b_strides)},
                     {a.element_size(), b.element_size()});
  return backend(a.device())
      .all_close(a.dtype(), loop, rtol, atol, equal_nan, current_stream(a.device()));
}

}  // namespace

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  ACCEL_CHECK(a.dtype() == b.dtype(), "allclose",
              "expected both tensors to have the same dtype, got {} and {}", a.dtype(), b.dtype());
  return all_close(a, b, rtol, atol, equal_nan, "allclose");
}

bool equal(const Tensor& a, const Tensor& b) {
  check_same_device(a, b, "equal");
  if (a.sizes() != b.sizes()) return false;
  const ScalarType dtype = promote_types(a.dtype(), b.dtype());
  NoGradGuard no_grad;
  return all_close(a.to(dtype), b.to(dtype), 0, 0, false, "equal");
}

bool Tensor::allclose(const Tensor& o, double rtol, double atol, bool equal_nan) const {
  return accel::allclose(*this, o, rtol, atol, equal_nan);
}
bool Tensor::equal(const Tensor& o) const { return accel::equal(*this, o); }

}  // namespace accel
