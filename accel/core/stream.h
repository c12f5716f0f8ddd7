// Stream and Event: ordered queues of device work and markers in them. On the CPU work runs
// eagerly, so both are trivial there; the CUDA backend maps them onto cudaStream_t and
// cudaEvent_t so compute, copies and collectives can overlap. Each thread has a current
// stream per device, which ops and allocations use unless told otherwise.
#pragma once

#include <cstdint>

#include "accel/core/device.h"

namespace accel {

class Stream {
 public:
  Stream() = default;
  // handle: the backend's stream object (cudaStream_t) or nullptr for the default stream.
  Stream(Device device, void* handle) : device_(device), handle_(handle) {}

  Device device() const { return device_; }
  void* handle() const { return handle_; }
  // Blocks until all work queued on this stream is done (no-op on the CPU).
  void synchronize() const;
  bool operator==(const Stream&) const = default;

 private:
  Device device_;
  void* handle_ = nullptr;
};

// The calling thread's current stream for `device` (the default stream unless a
// StreamGuard says otherwise).
Stream current_stream(Device device);

// Makes `stream` current for its device on this thread for the guard's lifetime.
class StreamGuard {
 public:
  explicit StreamGuard(Stream stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_;
};

class Event {
 public:
  Event() = default;
  // Marks the point in `stream` that wait/synchronize refer to.
  void record(const Stream& stream);
  // Makes `stream` wait for the recorded point without blocking the host.
  void block(const Stream& stream) const;
  void synchronize() const;
  bool query() const;

 private:
  Stream stream_;
};

}  // namespace accel
