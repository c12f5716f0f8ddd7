// Stream and Event: ordered queues of device work and markers in them. On the CPU work runs
// eagerly, so both are trivial there; the CUDA backend maps them onto cudaStream_t and
// cudaEvent_t so compute, copies and collectives can overlap. Each thread has a current
// stream per device, which ops and allocations use unless told otherwise.
#pragma once

#include "accel/base/stream.h"

namespace accel {

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
