// Storage: a reference-counted block of device memory that tensors view. Views of one tensor
// share one Storage, and with it the version counter that in-place ops bump and autograd
// checks, so modifying any alias of a tensor saved for backward is detected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "accel/core/allocator.h"

namespace accel {

class Storage {
 public:
  // Memory from the allocator of `device` (the pinned host allocator for a pinned CPU
  // storage), on the current stream.
  Storage(size_t nbytes, Device device, bool pinned = false);
  // Memory owned elsewhere (from_blob); `deleter`, if any, runs when the storage dies.
  Storage(void* data, size_t nbytes, Device device, std::function<void(void*)> deleter);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }

  // Whether the memory is page-locked host memory from the pinned allocator.
  bool is_pinned() const;
  // Keeps the memory from reuse after this storage dies until `stream`'s work queued so far
  // is done (Allocator::record_stream); external memory is the owner's business.
  void record_stream(const Stream& stream);

  uint32_t version() const { return version_; }
  void bump_version() { ++version_; }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Allocator* allocator_;  // null for external memory
  Stream stream_;         // the stream the memory was allocated on
  std::function<void(void*)> deleter_;
  uint32_t version_ = 0;
};

}  // namespace accel
