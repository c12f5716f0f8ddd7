// The CUDA runtime's answers in a build without the CUDA backend: no devices, and a clear
// error for any use of one.
#ifndef ACCEL_WITH_CUDA
#include "accel/base/error.h"
#include "accel/core/allocator.h"
#include "accel/core/backend.h"
#include "accel/core/cuda.h"

namespace accel::cuda {

bool is_compiled() { return false; }
int device_count() { return 0; }

void check_device(Device device, const char* op) {
  fail(op,
       "device {} is not available: this build of accel has no CUDA backend (configure it "
       "with -DACCEL_CUDA=ON where the CUDA toolkit is installed)",
       device);
}

}  // namespace accel::cuda

namespace accel {

const Backend& cuda_backend(Device device) {
  cuda::check_device(device, "backend");  // throws: there is no CUDA table to return
  fail("backend", "device {} has no kernels in this build", device);
}

Allocator& cuda_allocator(Device device) {
  cuda::check_device(device, "allocate");  // throws: there is no CUDA allocator to return
  fail("allocate", "device {} has no allocator in this build", device);
}

}  // namespace accel
#endif
