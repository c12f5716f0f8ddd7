// The CUDA runtime as every build sees it: whether the backend is compiled in, how many
// devices this machine has, the check that says why a CUDA device cannot be used, device
// selection, synchronization, a pool of streams, and the host<->device copies the tensor
// layer needs. A build without the backend answers "not compiled" and zero devices, and any
// use of a CUDA device is a clear accel::Error.
#pragma once

#include <cstddef>

#include "accel/base/device.h"
#include "accel/base/stream.h"

namespace accel::cuda {

// Whether this build has the CUDA backend.
bool is_compiled();
// Devices the CUDA runtime sees: 0 without a GPU or driver (never an error).
int device_count();
inline bool is_available() { return device_count() > 0; }

// Throws accel::Error, starting with `op`, unless `device` is a CUDA device this build and
// machine can use: it says which of these is missing (the backend is not compiled in; no
// device, with the driver's reason; or the index is beyond the devices present).
void check_device(Device device, const char* op);

// Makes `device` the calling thread's current CUDA device and this process's device (as
// torch.cuda.set_device, which a training script calls once with its local rank; the
// Accelerator does). Threads that chose no device of their own, such as data-loading workers
// pinning memory or a process group's watchdog, work on the process's device, so that a process
// training on cuda:3 makes no context on cuda:0.
void set_device(Device device);
// The device set_device chose last; cuda:0 before any call.
Device process_device();

// Makes `device` the calling thread's current CUDA device for the guard's lifetime (a CPU
// device: nothing to do). A thread that had chosen no device is left on `device` afterwards:
// restoring the runtime's default, device 0, would make a context there for nothing (as
// PyTorch's guards avoid too).
class DeviceGuard {
 public:
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  // The device to restore; -1 when nothing was changed. Unused without CUDA.
  [[maybe_unused]] int previous_ = -1;
};

// Waits for all work queued on `device`, then raises any error its kernels reported (an
// index out of range) as accel::Error.
void synchronize(Device device);

// A non-default stream of `device` from a small pool the runtime owns for the process's
// lifetime (as torch.cuda.Stream(): work on it overlaps the default stream's).
Stream stream_from_pool(Device device);

// float32 matrix products may use TF32 tensor cores (torch.backends.cuda.matmul.allow_tf32;
// off by default). Defined by the CUDA GEMM (kernels/cuda/gemm.cpp); a no-op without CUDA.
void set_allow_tf32(bool allow);
bool allow_tf32();

// `bytes` from src (on src_device) to dst (on dst_device), at least one of them a CUDA device,
// ordered on `stream` (a stream of the CUDA side; of the destination when both are). Unless
// non_blocking, returns once the copy is complete (raising kernel errors found by then); a
// non-blocking copy must involve only pinned host memory, kept alive by the caller until the
// stream passes the copy.
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t bytes,
                const Stream& stream, bool non_blocking);

// The runtime behind Stream and Event (core/stream.cpp). Events are cudaEvent_t handles.
namespace detail {
void synchronize_stream(const Stream& stream);
void* create_event(Device device);
void destroy_event(void* event) noexcept;
void record_event(void* event, const Stream& stream);
void block_on_event(void* event, const Stream& stream);
void synchronize_event(void* event, Device device);
bool query_event(void* event);
}  // namespace detail

}  // namespace accel::cuda
