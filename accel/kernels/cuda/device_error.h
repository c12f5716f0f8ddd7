// Errors found inside CUDA kernels (an index out of range, an integer division by zero, a
// probability outside [0, 1]): a kernel cannot throw, so it writes the first error into a
// small record in host-mapped pinned memory, one per device, and the runtime raises it as
// accel::Error at the next synchronization with that device, worded as the CPU words it at
// once. The first reporter is decided by an atomic on a flag in the device's own memory: atomics
// on host memory across PCIe need the platform's support.
#pragma once

#include <cstdint>

namespace accel::cuda {

enum class DeviceErrorKind : int32_t {
  IndexOutOfRange,        // index `value` out of bounds for dimension `dim` with size `size`
  IntegerDivisionByZero,  // integer division by zero
  InvalidProbability,     // probability `real_value` outside [0, 1]
  ClassTargetOutOfRange,  // class target `value` neither in [0, `size`) nor ignore_index `dim`
};

struct DeviceErrorRecord {
  int32_t* claimed;  // in device memory: 0 until a kernel reports; the first sets it to 1
  int32_t ready;     // set to 1 after the fields below are written
  DeviceErrorKind kind;
  const char* op;  // a string literal of the host's (kernels only copy the pointer)
  int64_t value, size, dim;
  double real_value;
};

// The record of `device`, addressable from host and device (created on first use).
DeviceErrorRecord* device_error_record(int device);

// Throws the error a kernel reported on `device` since the last check, clearing it; call only
// once the device's work that may report is complete (after a synchronization).
void raise_device_error(int device);

}  // namespace accel::cuda
