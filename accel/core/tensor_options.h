// TensorOptions: dtype, device, requires_grad and pinned_memory for factories (LibTorch's
// builder style: TensorOptions().dtype(kFloat64).requires_grad(true)).
#pragma once

#include <optional>

#include "accel/base/device.h"
#include "accel/base/scalar_type.h"

namespace accel {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}
  TensorOptions(Device device) : device_(device) {}
  TensorOptions(DeviceType device) : device_(device) {}

  TensorOptions dtype(ScalarType d) const {
    auto o = *this;
    o.dtype_ = d;
    return o;
  }
  TensorOptions device(Device d) const {
    auto o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions requires_grad(bool r) const {
    auto o = *this;
    o.requires_grad_ = r;
    return o;
  }
  // Page-locked host memory, which a GPU copies from and to asynchronously (CPU tensors only).
  TensorOptions pinned_memory(bool p) const {
    auto o = *this;
    o.pinned_memory_ = p;
    return o;
  }

  ScalarType dtype() const { return dtype_.value_or(kDefaultFloat); }
  bool has_dtype() const { return dtype_.has_value(); }
  Device device() const { return device_; }
  bool requires_grad() const { return requires_grad_; }
  bool pinned_memory() const { return pinned_memory_; }

 private:
  std::optional<ScalarType> dtype_;
  Device device_ = Device(kCPU);
  bool requires_grad_ = false;
  bool pinned_memory_ = false;
};

inline TensorOptions dtype(ScalarType d) { return TensorOptions().dtype(d); }
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }

}  // namespace accel
