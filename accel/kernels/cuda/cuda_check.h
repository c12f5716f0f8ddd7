// Turning CUDA runtime failures into accel::Error: ACCEL_CUDA_CHECK(call, op) wraps a runtime
// call, check_launch(op) follows every kernel launch. The message names the op, the call and
// the runtime's own words, so a failure on a user's machine says what went wrong where.
#pragma once

#include <cuda_runtime.h>

#include "accel/base/error.h"

namespace accel::cuda {

[[noreturn]] inline void raise_cuda_error(cudaError_t status, const char* op, const char* call) {
  (void)cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  fail(op, "CUDA error {} ({}): {} in {}", static_cast<int>(status), cudaGetErrorName(status),
       cudaGetErrorString(status), call);
}

}  // namespace accel::cuda

#define ACCEL_CUDA_CHECK(call, op)                                   \
  do {                                                               \
    const cudaError_t accel_cuda_status = (call);                    \
    if (accel_cuda_status != cudaSuccess) [[unlikely]] {             \
      ::accel::cuda::raise_cuda_error(accel_cuda_status, op, #call); \
    }                                                                \
  } while (false)

namespace accel::cuda {

// After a kernel launch: a bad configuration or a missing kernel image is reported at once.
inline void check_launch(const char* op) { ACCEL_CUDA_CHECK(cudaGetLastError(), op); }

}  // namespace accel::cuda
