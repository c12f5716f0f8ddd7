// local_response_norm composed from core ops as PyTorch does: the squares' mean over a window of
// `size` channels is an average pooling over the channel dim of a zero-padded [N, 1, C, rest]
// view, so autograd differentiates it.
#include "accel/base/error.h"
#include "accel/core/ops.h"
#include "accel/core/pooling.h"
#include "accel/nn/functional/normalization.h"
#include "accel/nn/functional/pad.h"

namespace accel::nn::functional {

Tensor local_response_norm(const Tensor& input, int64_t size, double alpha, double beta, double k) {
  constexpr const char* op = "local_response_norm";
  ACCEL_CHECK(input.dim() >= 3, op, "expected input of shape [N, C, *] with 3 or more dims, got {}",
              input.sizes());
  ACCEL_CHECK(size > 0, op, "expected a positive size, got {}", size);
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  if (input.numel() == 0) return input;
  const int64_t samples = input.size(0);
  const int64_t channels = input.size(1);
  const Tensor squares = mul(input, input).reshape({samples, 1, channels, -1});
  const Tensor padded = pad(squares, {0, 0, size / 2, (size - 1) / 2});
  const Tensor window_means = avg_pool2d(padded, {size, 1}, {1}).reshape(input.sizes());
  return div(input, pow(add(mul(window_means, alpha), k), beta));
}

}  // namespace accel::nn::functional
