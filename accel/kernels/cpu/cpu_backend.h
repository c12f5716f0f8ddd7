// The CPU's kernel table (see kernels/backend.h).
#pragma once

#include "accel/kernels/backend.h"

namespace accel {

extern const Backend kCpuBackend;

}  // namespace accel
