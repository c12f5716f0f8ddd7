// dropout as the input times a Bernoulli keep-mask scaled by 1 / (1 - p); mul supplies the
// gradient.
#include "accel/nn/functional/dropout.h"

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

Tensor dropout(const Tensor& input, double p, bool training, Generator* generator) {
  ACCEL_CHECK(p >= 0 && p <= 1, "dropout", "probability must be in [0, 1], got {}", p);
  if (!training || p == 0) return input;
  if (p == 1) return input * zeros_like(input);
  const Tensor keep = bernoulli(input.sizes(), 1 - p,
                                TensorOptions(input.dtype()).device(input.device()), generator);
  return input * keep.div(1 - p);
}

}  // namespace accel::nn::functional
