// The caching allocator on the CUDA runtime: DeviceMemory over cudaMalloc for each GPU and
// over page-locked host memory for async copies, and the process-wide allocators built on
// them, cuda_allocator(device) and pinned_host_allocator(). The caching logic is elsewhere
// (core/caching_allocator.cpp); only the runtime calls are here.
#include <cuda_runtime.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "accel/core/allocator.h"
#include "accel/core/caching_allocator.h"
#include "accel/core/cuda.h"
#include "accel/kernels/cuda/cuda_check.h"

namespace accel {

namespace {

// The result of a runtime allocation call: nullptr when the runtime is out of memory (the
// caching allocator then gives back its cache and retries), an accel::Error on other failures.
void* allocated_or_null(cudaError_t status, void* ptr, const char* call) {
  if (status == cudaSuccess) return ptr;
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // clear it so the next call starts clean
    return nullptr;
  }
  cuda::raise_cuda_error(status, "allocate", call);
}

struct EventDeleter {
  void operator()(void* event) const noexcept { cuda::detail::destroy_event(event); }
};

// Events on the streams that use a block, through the runtime's events (core/cuda.h). Work on
// a CPU stream is complete when queued: it needs none.
class CudaEventMemory : public DeviceMemory {
 public:
  void* record_event(const Stream& stream) override {
    if (!stream.device().is_cuda()) return nullptr;
    std::unique_ptr<void, EventDeleter> event(cuda::detail::create_event(stream.device()));
    cuda::detail::record_event(event.get(), stream);
    return event.release();
  }
  bool event_completed(void* event) override {
    cuda::DeviceGuard guard(context_device());
    return cuda::detail::query_event(event);
  }
  void destroy_event(void* event) override { cuda::detail::destroy_event(event); }

 protected:
  // The device whose context the runtime calls run in. Any thread may allocate and free, and
  // on one that has chosen no device the runtime would make a context on device 0.
  virtual Device context_device() const = 0;
};

class CudaDeviceMemory final : public CudaEventMemory {
 public:
  explicit CudaDeviceMemory(Device device) : device_(device) {}

  void* allocate(size_t bytes) override {
    cuda::DeviceGuard guard(device_);
    void* ptr = nullptr;
    return allocated_or_null(cudaMalloc(&ptr, bytes), ptr, "cudaMalloc");
  }

  void release(void* ptr, size_t) override {
    cuda::DeviceGuard guard(device_);
    ACCEL_CUDA_CHECK(cudaFree(ptr), "empty_cache");
  }

 private:
  Device context_device() const override { return device_; }

  Device device_;
};

constexpr size_t kHostAlignment = 64;

// Page-locked host memory. Pinning needs a driver and a GPU: on a machine without them
// (cudaGetDeviceCount's "insufficient driver" or "no device", as cudaHostAlloc would fail) it is
// plain aligned host memory, so CPU-only machines run the same code. Decided once, at the first
// use of the pinned allocator.
class PinnedHostMemory final : public CudaEventMemory {
 public:
  void* allocate(size_t bytes) override {
    // The caching allocator asks for multiples of 512 bytes, as aligned_alloc requires.
    if (!pinned_) return std::aligned_alloc(kHostAlignment, bytes);
    cuda::DeviceGuard guard(context_device());
    void* ptr = nullptr;
    return allocated_or_null(cudaHostAlloc(&ptr, bytes, cudaHostAllocDefault), ptr,
                             "cudaHostAlloc");
  }

  void release(void* ptr, size_t) override {
    if (!pinned_) {
      std::free(ptr);
      return;
    }
    cuda::DeviceGuard guard(context_device());
    ACCEL_CUDA_CHECK(cudaFreeHost(ptr), "empty_cache");
  }

 private:
  // Pinned memory serves every device; its calls run in the process's device's context.
  Device context_device() const override { return cuda::process_device(); }

  const bool pinned_ = cuda::is_available();
};

}  // namespace

Allocator& cuda_allocator(Device device) {
  // One per GPU, made on first use: tensors may be freed from any thread at any time.
  struct PerDevice {
    std::once_flag made;
    std::unique_ptr<CachingAllocator> allocator;
  };
  // Never destroyed: a tensor in a static object (the default process group's last
  // collective, a user's global) may be freed after static destructors have begun.
  static auto& allocators = *new std::array<PerDevice, kMaxCudaDevices>;
  PerDevice& slot = allocators[static_cast<size_t>(device.index)];
  std::call_once(slot.made, [&] {
    slot.allocator =
        std::make_unique<CachingAllocator>(device, std::make_unique<CudaDeviceMemory>(device));
  });
  return *slot.allocator;
}

Allocator& pinned_host_allocator() {
  static auto& allocator =  // never destroyed, as the device allocators
      *new CachingAllocator(Device(kCPU), std::make_unique<PinnedHostMemory>());
  return allocator;
}

}  // namespace accel
