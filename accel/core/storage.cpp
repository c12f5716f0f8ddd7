// Storage lifetime: allocator-owned or external memory.
#include "accel/core/storage.h"

namespace accel {

Storage::Storage(size_t nbytes, Device device)
    : nbytes_(nbytes),
      device_(device),
      allocator_(&allocator_for(device)),
      stream_(current_stream(device)) {
  data_ = allocator_->allocate(nbytes, stream_);
}

Storage::Storage(void* data, size_t nbytes, Device device, std::function<void(void*)> deleter)
    : data_(data),
      nbytes_(nbytes),
      device_(device),
      allocator_(nullptr),
      deleter_(std::move(deleter)) {}

Storage::~Storage() {
  if (allocator_ != nullptr) {
    allocator_->deallocate(data_, nbytes_, stream_);
  } else if (deleter_) {
    deleter_(data_);
  }
}

}  // namespace accel
