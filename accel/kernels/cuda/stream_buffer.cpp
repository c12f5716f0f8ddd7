// Stream-ordered scratch memory (see stream_buffer.h).
#include "accel/kernels/cuda/stream_buffer.h"

#include <array>
#include <cstdint>
#include <limits>
#include <mutex>

#include "accel/base/device.h"
#include "accel/kernels/cuda/cuda_check.h"

namespace accel::cuda {

namespace {

// Makes the current device's default pool keep the memory it has (once per device).
void keep_pool_memory(const char* op) {
  int device = 0;
  ACCEL_CUDA_CHECK(cudaGetDevice(&device), op);
  static std::array<std::once_flag, kMaxCudaDevices> configured;
  std::call_once(configured[static_cast<size_t>(device)], [&] {
    cudaMemPool_t pool = nullptr;
    ACCEL_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device), op);
    uint64_t keep_everything = std::numeric_limits<uint64_t>::max();
    ACCEL_CUDA_CHECK(
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything), op);
  });
}

}  // namespace

StreamBuffer::StreamBuffer(int64_t bytes, cudaStream_t stream, const char* op) : stream_(stream) {
  keep_pool_memory(op);
  ACCEL_CUDA_CHECK(cudaMallocAsync(&data_, static_cast<size_t>(bytes), stream), op);
}

StreamBuffer::~StreamBuffer() { (void)cudaFreeAsync(data_, stream_); }

}  // namespace accel::cuda
