// Integer division through the kernel table (see integer_division.h).
#include "support/integer_division.h"

#include "accel/core/backend.h"

namespace accel::testing {

Tensor divide_integers(const Tensor& a, const Tensor& b) {
  const Device device = a.device();
  Tensor out = empty(a.sizes(), a.options());
  const int64_t size = a.element_size();
  backend(device).binary(
      math::BinaryOp::Div, a.dtype(),
      Loop<3>(a.sizes(),
              {static_cast<char*>(out.data_ptr()), static_cast<char*>(a.data_ptr()),
               static_cast<char*>(b.data_ptr())},
              {out.strides(), a.strides(), b.strides()}, {size, size, size}),
      1.0, current_stream(device));
  return out;
}

}  // namespace accel::testing
