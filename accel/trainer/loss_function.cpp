// LossFunction: the call, with a clear error when the Trainer was given no loss.
#include "accel/trainer/loss_function.h"

#include "accel/base/error.h"

namespace accel {

Tensor LossFunction::operator()(const Tensor& outputs, const Tensor& targets) const {
  ACCEL_CHECK(defined(), "LossFunction",
              "no loss function was given; pass one to the Trainer or override the batch-loss "
              "hooks");
  return function_(outputs, targets);
}

}  // namespace accel
