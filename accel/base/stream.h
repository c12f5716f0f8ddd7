// Stream: an ordered queue of work on one device, as a plain value (the device and the
// backend's handle: a cudaStream_t, or nullptr for the default stream and on the CPU, where
// work runs eagerly). Kernels take the stream they run on; the runtime that creates streams,
// tracks each thread's current one and waits for them is core/stream.h.
#pragma once

#include "accel/base/device.h"

namespace accel {

class Stream {
 public:
  Stream() = default;
  // handle: the backend's stream object (cudaStream_t) or nullptr for the default stream.
  Stream(Device device, void* handle) : device_(device), handle_(handle) {}

  Device device() const { return device_; }
  void* handle() const { return handle_; }
  // Blocks until all work queued on this stream is done (no-op on the CPU). Defined by the
  // runtime, core/stream.cpp.
  void synchronize() const;
  bool operator==(const Stream&) const = default;

 private:
  Device device_;
  void* handle_ = nullptr;
};

}  // namespace accel
