// channel_shuffle as a view [N, groups, C / groups, *], a transpose of the two channel dims and
// a reshape back, so the gradient is the inverse shuffle.
#include "accel/nn/functional/channel_shuffle.h"

#include "accel/base/error.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

Tensor channel_shuffle(const Tensor& input, int64_t groups) {
  constexpr const char* op = "channel_shuffle";
  ACCEL_CHECK(input.dim() >= 3, op, "expected an input [N, C, *] of at least 3 dims, got {}",
              input.sizes());
  ACCEL_CHECK(groups > 0, op, "groups must be positive, got {}", groups);
  const int64_t channels = input.size(1);
  ACCEL_CHECK(channels % groups == 0, op,
              "the channel dim ({}) of input {} must be divisible by groups ({})", channels,
              input.sizes(), groups);
  DimVector split{input.size(0), groups, channels / groups};
  for (int64_t d = 2; d < input.dim(); ++d) split.push_back(input.size(d));
  return input.reshape(as_ref(split)).transpose(1, 2).reshape(input.sizes());
}

}  // namespace accel::nn::functional
