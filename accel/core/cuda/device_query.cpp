// CUDA availability, answered by the CUDA runtime once per process. A machine without a GPU
// or driver reports "insufficient driver" (35) or "no device" (100): both mean zero devices,
// not an error; the runtime's reason is kept for the message when a device is asked for.
#include <cuda_runtime.h>

#include <mutex>
#include <string>

#include "accel/base/error.h"
#include "accel/core/cuda.h"

namespace accel::cuda {

namespace {

struct DeviceCensus {
  int count = 0;
  std::string why_none;  // the runtime's explanation when count is 0
};

const DeviceCensus& census() {
  static const DeviceCensus result = [] {
    DeviceCensus c;
    const cudaError_t status = cudaGetDeviceCount(&c.count);
    if (status != cudaSuccess) {
      c.count = 0;
      c.why_none = fmt::format("{} (CUDA error {}: {})", cudaGetErrorString(status),
                               static_cast<int>(status), cudaGetErrorName(status));
      (void)cudaGetLastError();  // clear the sticky error so later calls start clean
    } else if (c.count == 0) {
      c.why_none = "the CUDA runtime reports no devices";
    }
    return c;
  }();
  return result;
}

}  // namespace

bool is_compiled() { return true; }

int device_count() { return census().count; }

void check_device(Device device, const char* op) {
  ACCEL_CHECK(device.is_cuda(), op, "expected a CUDA device, got {}", device);
  const DeviceCensus& c = census();
  ACCEL_CHECK(c.count > 0, op, "device {} is not available: no CUDA device on this machine: {}",
              device, c.why_none);
  ACCEL_CHECK(device.index >= 0 && device.index < c.count, op,
              "device {} is out of range: this machine has {} CUDA device{} (cuda:0{})", device,
              c.count, c.count == 1 ? "" : "s",
              c.count == 1 ? "" : fmt::format(" to cuda:{}", c.count - 1));
}

}  // namespace accel::cuda
