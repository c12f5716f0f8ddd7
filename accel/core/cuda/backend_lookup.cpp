// backend(device) for CUDA devices: the CUDA kernel table, once the device is known usable.
#include "accel/core/backend.h"
#include "accel/core/cuda.h"
#include "accel/kernels/cuda/cuda_backend.h"

namespace accel {

const Backend& cuda_backend(Device device) {
  cuda::check_device(device, "backend");
  return kCudaBackend;
}

}  // namespace accel
