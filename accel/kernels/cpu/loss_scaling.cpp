// CPU gradient unscaling: one pass that multiplies by the inverse scale and checks finiteness.
#include "accel/kernels/cpu/loss_scaling.h"

#include "accel/base/dispatch.h"
#include "accel/kernels/common/loss_scaling.h"

namespace accel::cpu {

void unscale_gradient(ScalarType dtype, int64_t n, void* grad, double inv_scale, float* found_inf) {
  dispatch_floating(dtype, "unscale_gradient", [&]<typename T>() {
    using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
    T* data = static_cast<T*>(grad);
    const Acc scale = static_cast<Acc>(inv_scale);
    bool found_non_finite = false;
    for (int64_t i = 0; i < n; ++i)
      data[i] = math::unscale_gradient(data[i], scale, found_non_finite);
    if (found_non_finite) *found_inf = 1.0f;
  });
}

}  // namespace accel::cpu
