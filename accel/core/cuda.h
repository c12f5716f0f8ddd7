// The CUDA runtime as every build sees it: whether the backend is compiled in, how many
// devices this machine has, and the one check that says why a CUDA device cannot be used.
// A build without the backend answers "not compiled" and zero devices.
#pragma once

#include "accel/base/device.h"

namespace accel::cuda {

// Whether this build has the CUDA backend.
bool is_compiled();
// Devices the CUDA runtime sees: 0 without a GPU or driver (never an error).
int device_count();
inline bool is_available() { return device_count() > 0; }

// Throws accel::Error, starting with `op`, unless `device` is a CUDA device this build and
// machine can use: it says which of these is missing (the backend is not compiled in; no
// device, with the driver's reason; or the index is beyond the devices present).
void check_device(Device device, const char* op);

}  // namespace accel::cuda
