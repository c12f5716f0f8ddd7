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

void set_device(Device device) { check_device(device, "set_device"); }
Device process_device() { return Device(kCUDA, 0); }

DeviceGuard::DeviceGuard(Device device) {
  if (device.is_cuda()) check_device(device, "DeviceGuard");
}
DeviceGuard::~DeviceGuard() = default;

void synchronize(Device device) { check_device(device, "synchronize"); }

Stream stream_from_pool(Device device) {
  check_device(device, "stream_from_pool");
  return Stream(device, nullptr);
}

namespace {
bool tf32_allowed = false;  // remembered, though no GEMM here reads it
}  // namespace
void set_allow_tf32(bool allow) { tf32_allowed = allow; }
bool allow_tf32() { return tf32_allowed; }

void copy_bytes(void*, Device dst_device, const void*, Device src_device, size_t, const Stream&,
                bool) {
  check_device(dst_device.is_cuda() ? dst_device : src_device, "copy_");
}

namespace detail {
void synchronize_stream(const Stream& stream) { check_device(stream.device(), "synchronize"); }
void* create_event(Device device) {
  check_device(device, "Event");
  return nullptr;
}
// No event can exist without the backend: these are never reached.
void destroy_event(void*) noexcept {}
void record_event(void*, const Stream& stream) { check_device(stream.device(), "Event::record"); }
void block_on_event(void*, const Stream& stream) { check_device(stream.device(), "Event::block"); }
void synchronize_event(void*, Device device) { check_device(device, "Event::synchronize"); }
bool query_event(void*) { return true; }
}  // namespace detail

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
