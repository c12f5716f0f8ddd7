// backend(device): the kernel table (kernels/backend.h) for tensors on `device`. Every op
// reaches its kernels as backend(device).family(..., current_stream(device)): this is the one
// place that picks a backend, and the one that throws when this build or machine lacks the
// device (core/cuda.h says which).
#pragma once

#include "accel/core/stream.h"
#include "accel/kernels/backend.h"
#include "accel/kernels/cpu/cpu_backend.h"

namespace accel {

// The CUDA table, after checking that `device` is usable.
const Backend& cuda_backend(Device device);

inline const Backend& backend(Device device) {
  if (device.is_cpu()) [[likely]]
    return kCpuBackend;
  return cuda_backend(device);
}

}  // namespace accel
