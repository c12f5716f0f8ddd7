// SavedTensor: a tensor an op keeps for its backward. It holds a detached alias (so an op's
// saved output never points back at its own node: no reference cycles) and the storage's
// version at save time; get() refuses the tensor if an in-place op changed it since.
#pragma once

#include "accel/core/tensor.h"

namespace accel::autograd {

// Thrown by SavedTensor::get; the engine re-throws it as accel::Error naming the node.
class SavedTensorModified : public Error {
 public:
  using Error::Error;
};

class SavedTensor {
 public:
  SavedTensor() = default;
  SavedTensor(const Tensor& t)
      : data_(t.defined() ? t.detach() : Tensor()), version_(t.defined() ? t.version() : 0) {}

  const Tensor& get() const {
    if (data_.defined() && data_.version() != version_) [[unlikely]]
      fail_modified();
    return data_;
  }
  bool defined() const { return data_.defined(); }

 private:
  [[noreturn]] void fail_modified() const;

  Tensor data_;
  uint32_t version_ = 0;
};

}  // namespace accel::autograd
