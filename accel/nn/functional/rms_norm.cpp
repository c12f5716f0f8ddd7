// rms_norm composed from core ops (autograd differentiates it): the mean of squares over the
// normalized dims in float32 or float64, as PyTorch computes it, the weight applied before the
// result is rounded to the input's dtype.
#include <limits>

#include "accel/base/error.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/normalization.h"

namespace accel::nn::functional {

Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                std::optional<double> eps) {
  constexpr const char* op = "rms_norm";
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  bool matches = k >= 1 && input.dim() >= k;
  for (int64_t i = 0; matches && i < k; ++i) {
    matches = input.size(input.dim() - k + i) == normalized_shape[static_cast<size_t>(i)];
  }
  ACCEL_CHECK(matches, op,
              "normalized_shape {} must be non-empty and match the trailing dims of input {}",
              normalized_shape, input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  if (weight.defined()) {
    ACCEL_CHECK(weight.sizes() == normalized_shape && weight.is_floating_point(), op,
                "expected a floating-point weight of shape {} (normalized_shape), got {} {}",
                normalized_shape, to_string(weight.dtype()), weight.sizes());
    ACCEL_CHECK(weight.device() == input.device(), op,
                "expected the weight on the input's device {}, got {}", input.device(),
                weight.device());
  }
  const ScalarType compute = input.dtype() == kFloat64 ? kFloat64 : kFloat32;
  const double epsilon = eps.value_or(compute == kFloat64 ? std::numeric_limits<double>::epsilon()
                                                          : std::numeric_limits<float>::epsilon());
  DimVector dims;
  for (int64_t d = input.dim() - k; d < input.dim(); ++d) dims.push_back(d);
  const Tensor x = input.to(compute);
  Tensor out = mul(x, rsqrt(add(mean(mul(x, x), as_ref(dims), /*keepdim=*/true), epsilon)));
  if (weight.defined()) out = mul(out, weight.to(compute));
  return out.to(input.dtype());
}

}  // namespace accel::nn::functional
