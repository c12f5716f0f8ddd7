// Autocast state (one per device type and thread, as torch.autocast) and the cast each op
// applies at entry. The cast is the differentiable to(dtype), so gradients reach float32
// leaves in float32.
#include "accel/core/autocast.h"

namespace accel {

namespace {

struct AutocastState {
  bool enabled = false;
  ScalarType dtype;
};

// Indexed by DeviceType; PyTorch's default autocast dtypes (bfloat16 on CPU, float16 on CUDA).
thread_local AutocastState autocast_states[] = {{false, kBFloat16}, {false, kFloat16}};

AutocastState& state_of(DeviceType device) { return autocast_states[static_cast<int>(device)]; }

void check_autocast_dtype(DeviceType device, ScalarType dtype) {
  ACCEL_CHECK(dtype == kBFloat16 || dtype == kFloat16, "AutocastGuard",
              "{} autocast supports dtypes bfloat16 and float16, got {}",
              device == kCPU ? "CPU" : "CUDA", dtype);
}

}  // namespace

bool is_autocast_enabled(DeviceType device) { return state_of(device).enabled; }

ScalarType get_autocast_dtype(DeviceType device) { return state_of(device).dtype; }

AutocastGuard::AutocastGuard(DeviceType device, ScalarType dtype, bool enabled)
    : device_(device),
      previous_enabled_(state_of(device).enabled),
      previous_dtype_(state_of(device).dtype) {
  if (enabled) check_autocast_dtype(device, dtype);
  state_of(device) = {enabled, dtype};
}

AutocastGuard::~AutocastGuard() { state_of(device_) = {previous_enabled_, previous_dtype_}; }

Tensor autocast_input(const Tensor& t, CastPolicy policy) {
  // float64 is left alone under either policy, as PyTorch does: it was asked for explicitly.
  if (!t.defined() || !t.is_floating_point() || t.dtype() == kFloat64) return t;
  const AutocastState& state = state_of(t.device().type);
  if (!state.enabled) return t;
  return t.to(policy == CastPolicy::LowerPrecision ? state.dtype : kFloat32);
}

}  // namespace accel
