// The host side of device errors: one mapped record per device, allocated on first use, and
// the check run after synchronizations.
#include "accel/kernels/cuda/device_error.h"

#include <array>
#include <mutex>

#include "accel/base/device.h"
#include "accel/kernels/common/cross_entropy_math.h"
#include "accel/kernels/cuda/cuda_check.h"

namespace accel::cuda {

namespace {

std::mutex records_mutex;
std::array<DeviceErrorRecord*, kMaxCudaDevices> records{};

// Sets `claimed` (device memory of `device`) to 0 and waits until it is.
void clear_claim(int device, int32_t* claimed) {
  int previous = 0;
  ACCEL_CUDA_CHECK(cudaGetDevice(&previous), "device error record");
  ACCEL_CUDA_CHECK(cudaSetDevice(device), "device error record");
  ACCEL_CUDA_CHECK(cudaMemset(claimed, 0, sizeof(int32_t)), "device error record");
  ACCEL_CUDA_CHECK(cudaDeviceSynchronize(), "device error record");
  ACCEL_CUDA_CHECK(cudaSetDevice(previous), "device error record");
}

}  // namespace

DeviceErrorRecord* device_error_record(int device) {
  std::lock_guard lock(records_mutex);
  DeviceErrorRecord*& record = records[static_cast<size_t>(device)];
  if (record == nullptr) {
    // Mapped pinned memory is one allocation visible to every device (unified addressing), so
    // the host reads it without a copy; the claim flag is allocated on the device itself. Both
    // live as long as the process.
    void* memory = nullptr;
    ACCEL_CUDA_CHECK(cudaHostAlloc(&memory, sizeof(DeviceErrorRecord), cudaHostAllocMapped),
                     "device error record");
    void* claimed = nullptr;
    int previous = 0;
    ACCEL_CUDA_CHECK(cudaGetDevice(&previous), "device error record");
    ACCEL_CUDA_CHECK(cudaSetDevice(device), "device error record");
    ACCEL_CUDA_CHECK(cudaMalloc(&claimed, sizeof(int32_t)), "device error record");
    ACCEL_CUDA_CHECK(cudaSetDevice(previous), "device error record");
    clear_claim(device, static_cast<int32_t*>(claimed));
    record = new (memory) DeviceErrorRecord{};
    record->claimed = static_cast<int32_t*>(claimed);
  }
  return record;
}

void raise_device_error(int device) {
  DeviceErrorRecord error;
  {
    // Read and cleared under the lock: threads synchronizing at once raise an error once.
    std::lock_guard lock(records_mutex);
    DeviceErrorRecord* record = records[static_cast<size_t>(device)];
    if (record == nullptr || record->ready == 0) return;
    error = *record;
    *record = DeviceErrorRecord{};
    record->claimed = error.claimed;
    // The device's work is complete (the caller synchronized): nothing races this reset, and it
    // is done before any later kernel is launched.
    clear_claim(device, error.claimed);
  }
  switch (error.kind) {
    case DeviceErrorKind::IndexOutOfRange:
      fail(error.op, "index {} is out of bounds for dimension {} with size {} (found on cuda:{})",
           error.value, error.dim, error.size, device);
    case DeviceErrorKind::IntegerDivisionByZero:
      fail(error.op, "integer division by zero (found on cuda:{})", device);
    case DeviceErrorKind::InvalidProbability:
      fail(error.op, "expected every probability in [0, 1], got {} (found on cuda:{})",
           error.real_value, device);
    case DeviceErrorKind::ClassTargetOutOfRange:
      fail(error.op, "{} (found on cuda:{})",
           fmt::format(math::kClassTargetOutOfRange, error.value, error.size, error.size - 1,
                       error.dim),
           device);
  }
  fail(error.op, "a kernel reported an unknown error on cuda:{}", device);
}

}  // namespace accel::cuda
