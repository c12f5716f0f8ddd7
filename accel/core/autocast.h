// Autocast: a thread-local mixed-precision mode, as torch.autocast. Inside an AutocastGuard
// the ops that gain from low precision (matmul, linear, conv) cast their floating inputs to
// the autocast dtype, and the ops that need range or accuracy (softmax, log_softmax,
// losses, sum/mean and other reductions) cast them to float32. Each op applies its policy
// once at entry via autocast_input; outside a guard that is a no-op.
#pragma once

#include "accel/core/tensor.h"

namespace accel {

enum class CastPolicy : int8_t {
  LowerPrecision,  // matmul, linear, conv: run in the autocast dtype
  Float32,         // softmax, losses, reductions: run in float32
};

bool is_autocast_enabled(DeviceType device);
ScalarType get_autocast_dtype(DeviceType device);

// Enables (or disables) autocast for `device` with `dtype` (bfloat16 or float16; CPU float16
// is for testing the loss-scaling path, bfloat16 is the fast one there) for the guard's lifetime on
// this thread.
class AutocastGuard {
 public:
  explicit AutocastGuard(DeviceType device, ScalarType dtype = kBFloat16, bool enabled = true);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  DeviceType device_;
  bool previous_enabled_;
  ScalarType previous_dtype_;
};

// `t` as the op's policy wants it under the current autocast state: floating tensors are
// converted (differentiably); integer tensors and tensors outside autocast pass through.
Tensor autocast_input(const Tensor& t, CastPolicy policy);

}  // namespace accel
