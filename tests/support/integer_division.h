// Integer division through the kernel table, as the ops call it: no public op divides integers
// (div promotes them to a floating type), so the tests of the integer quotient kernels on each
// device reach them here.
#pragma once

#include "accel/accel.h"

namespace accel::testing {

// a / b computed by backend(a.device()).binary in a's dtype (a and b of the same sizes).
Tensor divide_integers(const Tensor& a, const Tensor& b);

}  // namespace accel::testing
