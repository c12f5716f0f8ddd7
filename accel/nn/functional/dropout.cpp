// The dropouts as the input times a random noise tensor (plus, for the alpha variants, an
// offset): one Bernoulli draw per element, or per channel broadcast over the rest. mul
// supplies the gradient.
#include "accel/nn/functional/dropout.h"

#include <cmath>

#include "accel/base/error.h"
#include "accel/base/warning.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

namespace {

// -scale * alpha of SELU: where SELU saturates for very negative inputs.
constexpr double kSeluSaturation = 1.7580993408473766;

void check_probability(double p, const char* op) {
  ACCEL_CHECK(p >= 0 && p <= 1, op, "probability must be in [0, 1], got {}", p);
}

// The shape of a per-element draw, or of a per-channel one (dims 0 and 1 kept, the rest 1).
DimVector noise_shape(const Tensor& input, bool per_channel) {
  DimVector shape(input.sizes().begin(), input.sizes().end());
  if (per_channel) {
    for (size_t d = 2; d < shape.size(); ++d) shape[d] = 1;
  }
  return shape;
}

// input * noise (+ offset) in training, where noise keeps each element or channel with
// probability 1 - p and scales to keep expectations (alpha: also mean and variance).
Tensor dropout_with(const Tensor& input, double p, bool training, Generator* generator,
                    bool per_channel, bool alpha, const char* op) {
  check_probability(p, op);
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
  if (!training || p == 0) return input;
  if (p == 1) return input * zeros_like(input);
  const Tensor keep = bernoulli(as_ref(noise_shape(input, per_channel)), 1 - p,
                                TensorOptions(input.dtype()).device(input.device()), generator);
  if (!alpha) return input * keep.div(1 - p);
  const double a = 1 / std::sqrt((kSeluSaturation * kSeluSaturation * p + 1) * (1 - p));
  const Tensor offset = (keep - 1) * (kSeluSaturation * a) + kSeluSaturation * a * p;
  return input * (keep * a) + offset;
}

// Channel dropout of an input whose unbatched form has `unbatched_dims` dims: that form gets a
// batch dim of one for the draw.
Tensor channel_dropout(const Tensor& input, double p, bool training, Generator* generator,
                       int64_t unbatched_dims, const char* op) {
  const bool unbatched = input.dim() == unbatched_dims;
  ACCEL_CHECK(unbatched || input.dim() == unbatched_dims + 1, op,
              "expected a {}-D (unbatched) or {}-D (batched) input, got {}", unbatched_dims,
              unbatched_dims + 1, input.sizes());
  const Tensor batched = unbatched ? input.unsqueeze(0) : input;
  const Tensor out = dropout_with(batched, p, training, generator, true, false, op);
  return unbatched ? out.squeeze(0) : out;
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool training, Generator* generator) {
  return dropout_with(input, p, training, generator, false, false, "dropout");
}

Tensor dropout1d(const Tensor& input, double p, bool training, Generator* generator) {
  return channel_dropout(input, p, training, generator, 2, "dropout1d");
}

Tensor dropout2d(const Tensor& input, double p, bool training, Generator* generator) {
  constexpr const char* op = "dropout2d";
  ACCEL_CHECK(input.dim() == 3 || input.dim() == 4, op,
              "expected a 4-D [N, C, H, W] input (or a 3-D [N, C, L] one), got {}", input.sizes());
  if (input.dim() == 3) {
    warn(op,
         "received a 3-D input, taken as [N, C, L] for channel-wise 1-D dropout (as PyTorch "
         "does); use dropout1d for that, or give a 4-D [N, C, H, W] input");
  }
  return dropout_with(input, p, training, generator, true, false, op);
}

Tensor dropout3d(const Tensor& input, double p, bool training, Generator* generator) {
  return channel_dropout(input, p, training, generator, 4, "dropout3d");
}

Tensor alpha_dropout(const Tensor& input, double p, bool training, Generator* generator) {
  return dropout_with(input, p, training, generator, false, true, "alpha_dropout");
}

Tensor feature_alpha_dropout(const Tensor& input, double p, bool training, Generator* generator) {
  constexpr const char* op = "feature_alpha_dropout";
  ACCEL_CHECK(input.dim() >= 2, op, "expected an input with a batch and a channel dim, got {}",
              input.sizes());
  return dropout_with(input, p, training, generator, true, true, op);
}

}  // namespace accel::nn::functional
