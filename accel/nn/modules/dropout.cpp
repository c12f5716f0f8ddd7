// nn::Dropout: F::dropout in training mode, the identity in eval; p is checked once, when the
// layer is built.
#include "accel/nn/modules/dropout.h"

#include "accel/nn/functional/dropout.h"

namespace accel::nn {

DropoutImpl::DropoutImpl(double p_) : p(p_) {
  ACCEL_CHECK(p >= 0 && p <= 1, "Dropout", "p must be in [0, 1], got {}", p);
}

Tensor DropoutImpl::forward(const Tensor& input) {
  return functional::dropout(input, p, is_training());
}

std::string DropoutImpl::extra_repr() const { return fmt::format("p={}", p); }

}  // namespace accel::nn
