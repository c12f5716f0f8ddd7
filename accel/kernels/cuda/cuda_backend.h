// The CUDA kernel table (see kernels/backend.h); exists only in builds with the CUDA backend.
#pragma once

#include "accel/kernels/backend.h"

namespace accel {

extern const Backend kCudaBackend;

}  // namespace accel
