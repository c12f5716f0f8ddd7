// Scratch device memory ordered on a stream (cudaMallocAsync / cudaFreeAsync): allocated before
// the kernels that use it and released behind them, without a host synchronization. The
// runtime's pool behind it keeps what is freed for the next use: by default it would give the
// memory back to the device at every synchronization and map it again at the next step.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace accel::cuda {

class StreamBuffer {
 public:
  // `bytes` on the current device, ordered on `stream`; errors name `op`.
  StreamBuffer(int64_t bytes, cudaStream_t stream, const char* op);
  ~StreamBuffer();
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  template <typename T>
  T* get() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace accel::cuda
