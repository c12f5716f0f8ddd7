// Storage lifetime: allocator-owned or external memory.
#include "accel/core/storage.h"

#include "accel/base/error.h"

namespace accel {

namespace {
Allocator& allocator_of(Device device, bool pinned) {
  if (!pinned) return allocator_for(device);
  ACCEL_CHECK(device.is_cpu(), "pin_memory", "only CPU tensors can be pinned, got one on {}",
              device);
  return pinned_host_allocator();
}
}  // namespace

Storage::Storage(size_t nbytes, Device device, bool pinned)
    : nbytes_(nbytes),
      device_(device),
      allocator_(&allocator_of(device, pinned)),
      stream_(current_stream(device)) {
  data_ = allocator_->allocate(nbytes, stream_);
}

bool Storage::is_pinned() const { return allocator_ == &pinned_host_allocator(); }

void Storage::record_stream(const Stream& stream) {
  if (allocator_ != nullptr && data_ != nullptr) allocator_->record_stream(data_, stream);
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
