// CUDA's nonzero: the coordinates of a bool tensor's true elements (contract in
// kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/int_array_ref.h"
#include "accel/base/stream.h"

namespace accel::cuda {

void nonzero(const bool* flags, IntArrayRef sizes, int64_t count, int64_t* out,
             const Stream& stream);

}  // namespace accel::cuda
