// The loop the gather and scatter kernels take, for tests that call them through a backend's
// table: the kernels test their indices themselves, whatever ran before them.
#pragma once

#include "accel/accel.h"
#include "accel/kernels/common/loop.h"

namespace accel::testing {

// Loop<3> over the index's shape: operand 0 is a, 1 is b (each with the strides given, in
// elements), 2 the int64 index; a and b hold 4-byte elements.
inline Loop<3> index_loop(const Tensor& index, const Tensor& a, IntArrayRef a_strides,
                          const Tensor& b, IntArrayRef b_strides) {
  return Loop<3>(index.sizes(),
                 {static_cast<char*>(a.data_ptr()), static_cast<char*>(b.data_ptr()),
                  static_cast<char*>(index.data_ptr())},
                 {a_strides, b_strides, index.strides()}, {4, 4, 8});
}

}  // namespace accel::testing
