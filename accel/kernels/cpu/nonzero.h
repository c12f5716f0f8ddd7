// The CPU's nonzero: the coordinates of a bool tensor's true elements (contract in
// kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/int_array_ref.h"

namespace accel::cpu {

// out [count, sizes.size()] = the coordinates of the count true elements of the contiguous
// `flags` of shape `sizes`, in row-major order.
void nonzero(const bool* flags, IntArrayRef sizes, int64_t count, int64_t* out);

}  // namespace accel::cpu
