// The per-thread current stream of each device, and Event, a marker in a stream's queue. On
// the CPU work runs eagerly, so both are trivial there; on CUDA a Stream is a cudaStream_t
// (nullptr: the default stream) and an Event a cudaEvent_t, so compute, copies and collectives
// can overlap and be ordered. Ops and allocations use the current stream of their device.
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

// A point in a stream's queue (torch.cuda.Event). Owns its CUDA event, created on the first
// record on a CUDA stream; movable, not copyable.
class Event {
 public:
  Event() = default;
  ~Event();
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Marks the work queued on `stream` so far.
  void record(const Stream& stream);
  // Makes `stream` wait for the recorded point without blocking the host.
  void block(const Stream& stream) const;
  // Blocks the host until the recorded work is done.
  void synchronize() const;
  // Whether the recorded work is done (true when nothing was recorded).
  bool query() const;

 private:
  Device device_;
  void* handle_ = nullptr;  // cudaEvent_t, or nullptr before a CUDA record
};

}  // namespace accel
