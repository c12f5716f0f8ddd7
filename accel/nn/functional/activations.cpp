// The functional activations that compose core ops (prelu, rrelu, glu, softmin), whose
// gradients come from where, mul, sigmoid and softmax.
#include "accel/nn/functional/activations.h"

#include "accel/base/error.h"
#include "accel/core/factories.h"

namespace accel::nn::functional {

Tensor logsigmoid(const Tensor& input) { return log_sigmoid(input); }

Tensor prelu(const Tensor& input, const Tensor& weight) {
  constexpr const char* op = "prelu";
  ACCEL_CHECK(weight.dim() <= 1, op, "expected weight to be a scalar or 1-D tensor, got shape {}",
              weight.sizes());
  Tensor slope = weight;
  if (weight.numel() != 1) {
    ACCEL_CHECK(input.dim() > 0, op, "expected an input with at least one dim, got a 0-dim tensor");
    const int64_t channels = input.dim() > 1 ? input.size(1) : 1;
    ACCEL_CHECK(channels == weight.numel(), op,
                "weight has {} elements but the input {} has {} channels (dim 1): give one slope "
                "or one per channel",
                weight.numel(), input.sizes(), channels);
    DimVector slope_shape(input.dim(), 1);
    slope_shape[1] = channels;
    slope = weight.reshape(as_ref(slope_shape));
  }
  return where(input > 0, input, input * slope);
}

Tensor rrelu(const Tensor& input, double lower, double upper, bool training, Generator* generator) {
  ACCEL_CHECK(lower <= upper, "rrelu",
              "lower must not be greater than upper, got lower {} and upper {}", lower, upper);
  if (!training) return leaky_relu(input, (lower + upper) / 2);
  ACCEL_CHECK(is_floating_point(input.dtype()), "rrelu", "expected a floating point tensor, got {}",
              input.dtype());
  const Tensor slopes =
      rand(input.sizes(), TensorOptions(input.dtype()).device(input.device()), generator) *
          (upper - lower) +
      lower;
  return input * where(input <= 0, slopes, 1.0);
}

Tensor glu(const Tensor& input, int64_t dim) {
  constexpr const char* op = "glu";
  ACCEL_CHECK(input.dim() > 0, op, "expected an input with at least one dim, got a 0-dim tensor");
  dim = wrap_dim(dim, input.dim(), op);
  const int64_t size = input.size(dim);
  ACCEL_CHECK(size % 2 == 0, op, "the halved dim must have an even size, but dim {} of {} is {}",
              dim, input.sizes(), size);
  const Tensor values = input.narrow(dim, 0, size / 2);
  const Tensor gates = input.narrow(dim, size / 2, size / 2);
  return values * sigmoid(gates);
}

Tensor softmin(const Tensor& input, int64_t dim) { return softmax(-input, dim); }

}  // namespace accel::nn::functional
