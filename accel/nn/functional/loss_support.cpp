// The helpers of loss_support.h.
#include "accel/nn/functional/loss_support.h"

#include "accel/base/error.h"
#include "accel/base/warning.h"
#include "accel/core/autocast.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

Tensor reduce(const Tensor& loss, Reduction reduction) {
  switch (reduction) {
    case Reduction::None:
      return loss;
    case Reduction::Sum:
      return loss.sum();
    case Reduction::Mean:
      break;
  }
  return loss.mean();
}

void check_floating(const char* op, const Tensor& t, const char* what) {
  ACCEL_CHECK(t.is_floating_point(), op, "expected a floating-point {}, got {}", what,
              to_string(t.dtype()));
}

Tensor loss_input(const char* op, const Tensor& t, const char* what) {
  ACCEL_CHECK(t.defined(), op, "{} is undefined", what);
  check_floating(op, t, what);
  return autocast_input(t, CastPolicy::Float32);
}

Tensor loss_target(const char* op, const Tensor& target, const Tensor& input) {
  ACCEL_CHECK(target.defined(), op, "target is undefined");
  return target.is_floating_point() ? autocast_input(target, CastPolicy::Float32)
                                    : target.to(input.dtype());
}

Tensor optional_weight(const Tensor& weight, const Tensor& like) {
  return weight.defined() ? weight.detach().to(like.dtype()) : Tensor();
}

void check_broadcastable(const char* op, const Tensor& input, const Tensor& target) {
  (void)broadcast_shapes(input.sizes(), target.sizes(), op);
}

void check_target_broadcasts(const char* op, const Tensor& input, const Tensor& target) {
  check_broadcastable(op, input, target);
  if (input.sizes() != target.sizes()) {
    warn(op,
         "target size {} differs from input size {}; they broadcast to {}, which is likely a "
         "mistake (unsqueeze or view the target to the input's shape)",
         target.sizes(), input.sizes(), broadcast_shapes(input.sizes(), target.sizes(), op));
  }
}

void check_same_shape(const char* op, const Tensor& input, const Tensor& target) {
  ACCEL_CHECK(input.sizes() == target.sizes(), op,
              "target size {} must be the same as input size {}", target.sizes(), input.sizes());
}

}  // namespace accel::nn::functional
