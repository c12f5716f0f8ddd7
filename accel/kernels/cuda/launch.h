// The host side of every CUDA kernel or library launch: the cudaStream_t behind a Stream, with
// its device made the current one (host-only, so g++-compiled files such as the cuBLAS calls
// use it too; kernels/cuda/launch.cuh adds the device-side helpers).
#pragma once

#include <cuda_runtime.h>

#include "accel/base/stream.h"
#include "accel/kernels/cuda/cuda_check.h"

namespace accel::cuda {

inline cudaStream_t launch_stream(const Stream& stream) {
  int current = -1;
  ACCEL_CUDA_CHECK(cudaGetDevice(&current), "launch");
  if (current != stream.device().index) {
    ACCEL_CUDA_CHECK(cudaSetDevice(stream.device().index), "launch");
  }
  return static_cast<cudaStream_t>(stream.handle());
}

}  // namespace accel::cuda
