// Streams and events: the per-thread, per-device current stream is bookkeeping done here; the
// CUDA work itself (waiting, events) is the runtime's (core/cuda.h). On the CPU work is already
// complete when an op returns, so waiting is a no-op there.
#include "accel/core/stream.h"

#include <array>
#include <utility>

#include "accel/base/error.h"
#include "accel/core/cuda.h"

namespace accel {

namespace {

// Handles of each CUDA device's current stream on this thread (nullptr: the default stream).
thread_local std::array<void*, kMaxCudaDevices> current_cuda_streams{};

void* current_handle(Device device, const char* op) {
  ACCEL_CHECK(device.index >= 0 && device.index < kMaxCudaDevices, op, "invalid device {}", device);
  return current_cuda_streams[static_cast<size_t>(device.index)];
}

}  // namespace

void Stream::synchronize() const {
  if (device_.is_cuda()) cuda::detail::synchronize_stream(*this);
}

Stream current_stream(Device device) {
  if (device.is_cpu()) return Stream(device, nullptr);
  return Stream(device, current_handle(device, "current_stream"));
}

StreamGuard::StreamGuard(Stream stream) : previous_(current_stream(stream.device())) {
  if (stream.device().is_cuda()) {
    current_cuda_streams[static_cast<size_t>(stream.device().index)] = stream.handle();
  }
}

StreamGuard::~StreamGuard() {
  if (previous_.device().is_cuda()) {
    current_cuda_streams[static_cast<size_t>(previous_.device().index)] = previous_.handle();
  }
}

Event::~Event() {
  if (handle_ != nullptr) cuda::detail::destroy_event(handle_);
}

Event::Event(Event&& other) noexcept
    : device_(other.device_), handle_(std::exchange(other.handle_, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) cuda::detail::destroy_event(handle_);
    device_ = other.device_;
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

void Event::record(const Stream& stream) {
  if (stream.device().is_cpu()) return;  // CPU work is complete: nothing to mark
  if (handle_ != nullptr && device_ != stream.device()) {
    cuda::detail::destroy_event(std::exchange(handle_, nullptr));
  }
  if (handle_ == nullptr) handle_ = cuda::detail::create_event(stream.device());
  device_ = stream.device();
  cuda::detail::record_event(handle_, stream);
}

void Event::block(const Stream& stream) const {
  if (handle_ != nullptr && stream.device().is_cuda()) {
    cuda::detail::block_on_event(handle_, stream);
  } else if (handle_ != nullptr) {
    synchronize();  // the CPU "stream" waits by waiting on the host
  }
}

void Event::synchronize() const {
  if (handle_ != nullptr) cuda::detail::synchronize_event(handle_, device_);
}

bool Event::query() const { return handle_ == nullptr || cuda::detail::query_event(handle_); }

}  // namespace accel
