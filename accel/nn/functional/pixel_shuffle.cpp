// pixel_shuffle and pixel_unshuffle as one view, one permutation and one reshape each, so the
// gradient is the inverse rearrangement.
#include "accel/nn/functional/pixel_shuffle.h"

#include "accel/base/error.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

namespace {

// The leading (batch) dims of an image tensor [*, C, H, W], after the checks shared by both.
DimVector batch_dims(const Tensor& input, int64_t factor, const char* op) {
  ACCEL_CHECK(input.dim() >= 3, op, "expected an input [*, C, H, W] of at least 3 dims, got {}",
              input.sizes());
  ACCEL_CHECK(factor > 0, op, "the factor must be positive, got {}", factor);
  return DimVector(input.sizes().begin(), input.sizes().end() - 3);
}

// The permutation that keeps the `batch` leading dims and orders the five after them as
// `order`.
DimVector permutation(size_t batch, std::initializer_list<int64_t> order) {
  DimVector dims;
  for (size_t d = 0; d < batch; ++d) dims.push_back(static_cast<int64_t>(d));
  for (int64_t d : order) dims.push_back(static_cast<int64_t>(batch) + d);
  return dims;
}

}  // namespace

Tensor pixel_shuffle(const Tensor& input, int64_t upscale_factor) {
  constexpr const char* op = "pixel_shuffle";
  const int64_t r = upscale_factor;
  DimVector shape = batch_dims(input, r, op);
  const size_t batch = shape.size();
  const int64_t channels = input.size(-3), h = input.size(-2), w = input.size(-1);
  ACCEL_CHECK(channels % (r * r) == 0, op,
              "the channel dim ({}) of input {} must be divisible by the square of "
              "upscale_factor ({})",
              channels, input.sizes(), r * r);
  DimVector split = shape;
  for (int64_t s : {channels / (r * r), r, r, h, w}) split.push_back(s);
  // [*, C, r, r, H, W] -> [*, C, H, r, W, r]
  const Tensor blocks =
      input.reshape(as_ref(split)).permute(as_ref(permutation(batch, {0, 3, 1, 4, 2})));
  for (int64_t s : {channels / (r * r), h * r, w * r}) shape.push_back(s);
  return blocks.reshape(as_ref(shape));
}

Tensor pixel_unshuffle(const Tensor& input, int64_t downscale_factor) {
  constexpr const char* op = "pixel_unshuffle";
  const int64_t r = downscale_factor;
  DimVector shape = batch_dims(input, r, op);
  const size_t batch = shape.size();
  const int64_t channels = input.size(-3), h = input.size(-2), w = input.size(-1);
  ACCEL_CHECK(h % r == 0 && w % r == 0, op,
              "the height and width ({} and {}) of input {} must be divisible by "
              "downscale_factor ({})",
              h, w, input.sizes(), r);
  DimVector split = shape;
  for (int64_t s : {channels, h / r, r, w / r, r}) split.push_back(s);
  // [*, C, H, r, W, r] -> [*, C, r, r, H, W]
  const Tensor blocks =
      input.reshape(as_ref(split)).permute(as_ref(permutation(batch, {0, 2, 4, 1, 3})));
  for (int64_t s : {channels * r * r, h / r, w / r}) shape.push_back(s);
  return blocks.reshape(as_ref(shape));
}

}  // namespace accel::nn::functional
