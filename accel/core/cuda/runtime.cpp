// The CUDA runtime behind core/cuda.h and core/stream.h: device selection, waiting for
// streams, events, a stream pool, and host<->device copies. Every wait ends by raising the
// errors kernels reported into the device's error record (kernels/cuda/device_error.h), so an
// index out of range inside a kernel surfaces as accel::Error at the next synchronization.
#include <cuda_runtime.h>

#include <array>
#include <atomic>
#include <mutex>

#include "accel/core/cuda.h"
#include "accel/kernels/cuda/cuda_check.h"
#include "accel/kernels/cuda/device_error.h"

namespace accel::cuda {

namespace {

cudaStream_t native(const Stream& stream) { return static_cast<cudaStream_t>(stream.handle()); }

// Streams handed out by stream_from_pool, per device: created on first use, round-robin, kept
// for the process's lifetime (as PyTorch's pool), so a Stream value never dangles.
constexpr int kPoolStreams = 8;
struct StreamPool {
  std::once_flag created;
  std::array<cudaStream_t, kPoolStreams> streams{};
  std::atomic<unsigned> next{0};
};
std::array<StreamPool, kMaxCudaDevices> stream_pools;

std::atomic<int> chosen_process_device{0};
// Whether this thread has chosen a device (through set_device or a DeviceGuard). One that has
// not is on device 0 only by the runtime's default, possibly without a context there yet.
thread_local bool thread_chose_device = false;

}  // namespace

void set_device(Device device) {
  check_device(device, "set_device");
  ACCEL_CUDA_CHECK(cudaSetDevice(device.index), "set_device");
  thread_chose_device = true;
  chosen_process_device.store(device.index);
}

Device process_device() { return Device(kCUDA, chosen_process_device.load()); }

DeviceGuard::DeviceGuard(Device device) {
  if (!device.is_cuda()) return;
  check_device(device, "DeviceGuard");
  int current = -1;
  ACCEL_CUDA_CHECK(cudaGetDevice(&current), "DeviceGuard");
  if (current == device.index) return;
  ACCEL_CUDA_CHECK(cudaSetDevice(device.index), "DeviceGuard");
  if (thread_chose_device || current != 0) previous_ = current;
  thread_chose_device = true;
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) (void)cudaSetDevice(previous_);  // cannot throw from a destructor
}

void synchronize(Device device) {
  check_device(device, "synchronize");
  DeviceGuard guard(device);
  ACCEL_CUDA_CHECK(cudaDeviceSynchronize(), "synchronize");
  raise_device_error(device.index);
}

Stream stream_from_pool(Device device) {
  check_device(device, "stream_from_pool");
  StreamPool& pool = stream_pools[static_cast<size_t>(device.index)];
  std::call_once(pool.created, [&] {
    DeviceGuard guard(device);
    for (cudaStream_t& s : pool.streams) {
      ACCEL_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream_from_pool");
    }
  });
  return Stream(device, pool.streams[pool.next.fetch_add(1) % kPoolStreams]);
}

void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t bytes,
                const Stream& stream, bool non_blocking) {
  if (bytes == 0) return;
  const Device cuda_side = dst_device.is_cuda() ? dst_device : src_device;
  DeviceGuard guard(cuda_side);
  const cudaMemcpyKind kind = src_device.is_cpu()   ? cudaMemcpyHostToDevice
                              : dst_device.is_cpu() ? cudaMemcpyDeviceToHost
                                                    : cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDeviceToDevice && src_device != dst_device) {
    ACCEL_CUDA_CHECK(
        cudaMemcpyPeerAsync(dst, dst_device.index, src, src_device.index, bytes, native(stream)),
        "copy_");
  } else {
    ACCEL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, native(stream)), "copy_");
  }
  if (!non_blocking) detail::synchronize_stream(stream);
}

namespace detail {

void synchronize_stream(const Stream& stream) {
  DeviceGuard guard(stream.device());
  ACCEL_CUDA_CHECK(cudaStreamSynchronize(native(stream)), "synchronize");
  raise_device_error(stream.device().index);
}

void* create_event(Device device) {
  DeviceGuard guard(device);
  cudaEvent_t event = nullptr;
  ACCEL_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "Event");
  return event;
}

void destroy_event(void* event) noexcept {
  (void)cudaEventDestroy(static_cast<cudaEvent_t>(event));
}

void record_event(void* event, const Stream& stream) {
  DeviceGuard guard(stream.device());
  ACCEL_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event), native(stream)),
                   "Event::record");
}

void block_on_event(void* event, const Stream& stream) {
  DeviceGuard guard(stream.device());
  ACCEL_CUDA_CHECK(cudaStreamWaitEvent(native(stream), static_cast<cudaEvent_t>(event), 0),
                   "Event::block");
}

void synchronize_event(void* event, Device device) {
  ACCEL_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "Event::synchronize");
  raise_device_error(device.index);
}

bool query_event(void* event) {
  const cudaError_t status = cudaEventQuery(static_cast<cudaEvent_t>(event));
  if (status == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  ACCEL_CUDA_CHECK(status, "Event::query");
  return true;
}

}  // namespace detail

}  // namespace accel::cuda
