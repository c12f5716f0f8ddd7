// CUDA availability, answered by the CUDA runtime. A machine without a GPU or driver reports
// "insufficient driver" (35) or "no device" (100): both mean zero devices, not an error.
#include <cuda_runtime.h>

#include "accel/core/device.h"

namespace accel {

bool cuda_is_compiled() { return true; }

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later calls start clean
    return 0;
  }
  return count;
}

}  // namespace accel
