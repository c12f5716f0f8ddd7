// Internal entry points of the binary ops shared with other op files.
#pragma once

#include "accel/core/tensor.h"
#include "accel/kernels/common/binary_math.h"

namespace accel {

// Broadcast, promote and compute `a op b` (a + alpha*b for add/sub) without recording.
Tensor binary_forward(math::BinaryOp op, const Tensor& a, const Tensor& b, double alpha,
                      const char* name);
// A 0-dim tensor holding `value` as `dtype` on a's device.
Tensor scalar_tensor_for(const Tensor& a, const Scalar& value, ScalarType dtype);
// Writes `result` into `self` and, if result has history, makes it self's history (the way
// in-place ops that must go through an out-of-place result keep autograd correct).
void adopt_result(const Tensor& self, const Tensor& result);

}  // namespace accel
