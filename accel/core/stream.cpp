// CPU side of streams and events: work is already complete when an op returns, so
// synchronization is a no-op; the per-thread current stream is still tracked so code written
// against streams runs unchanged on both backends.
#include "accel/core/stream.h"

#include "accel/base/error.h"

namespace accel {

namespace {
thread_local Stream current_cuda_stream{Device(kCUDA, 0), nullptr};
}

void Stream::synchronize() const {
  ACCEL_CHECK(device_.is_cpu(), "Stream::synchronize", "device {} is not available in this build",
              device_);
}

Stream current_stream(Device device) {
  if (device.is_cpu()) return Stream(device, nullptr);
  return current_cuda_stream;
}

StreamGuard::StreamGuard(Stream stream) : previous_(current_stream(stream.device())) {
  if (stream.device().is_cuda()) current_cuda_stream = stream;
}

StreamGuard::~StreamGuard() {
  if (previous_.device().is_cuda()) current_cuda_stream = previous_;
}

void Event::record(const Stream& stream) { stream_ = stream; }
void Event::block(const Stream& stream) const { (void)stream; }
void Event::synchronize() const { stream_.synchronize(); }
bool Event::query() const { return true; }

}  // namespace accel
