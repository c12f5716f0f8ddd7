// Normalize, Lambda and Compose. Normalize builds its [C,1,1] constants in the data's own
// dtype at each call, so float64 data is normalized in float64 and float32 stays float32.
#include "accel/data/transforms.h"

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::data {

Normalize::Normalize(double mean, double std) : Normalize(std::vector{mean}, std::vector{std}) {}

Normalize::Normalize(std::vector<double> mean, std::vector<double> std)
    : mean_(std::move(mean)), std_(std::move(std)) {
  ACCEL_CHECK(!mean_.empty() && mean_.size() == std_.size(), "Normalize",
              "expected as many means as stds (at least one), found {} and {}", mean_.size(),
              std_.size());
  for (size_t c = 0; c < std_.size(); ++c) {
    ACCEL_CHECK(std_[c] != 0, "Normalize", "expected non-zero std, found 0 for channel {}", c);
  }
}

Example Normalize::operator()(Example example) const {
  const Tensor& data = example.data;
  const ScalarType dtype = data.is_floating_point() ? data.dtype() : kFloat32;
  const int64_t channels = static_cast<int64_t>(mean_.size());
  if (channels == 1) {
    example.data = data.to(dtype).sub(mean_[0]).div(std_[0]);
    return example;
  }
  ACCEL_CHECK(data.dim() >= 3 && data.size(-3) == channels, "Normalize",
              "expected data with {} channels at dim -3, found shape {}", channels, data.sizes());
  const TensorOptions options = TensorOptions(dtype).device(data.device());
  const Tensor mean = tensor(mean_, options).view({channels, 1, 1});
  const Tensor std = tensor(std_, options).view({channels, 1, 1});
  example.data = (data.to(dtype) - mean) / std;
  return example;
}

Lambda::Lambda(std::function<Tensor(Tensor)> fn) : fn_(std::move(fn)) {
  ACCEL_CHECK(fn_ != nullptr, "Lambda", "expected a function, found an empty one");
}

Example Lambda::operator()(Example example) const {
  example.data = fn_(std::move(example.data));
  return example;
}

Compose::Compose(std::vector<Transform> transforms) : transforms_(std::move(transforms)) {
  for (size_t i = 0; i < transforms_.size(); ++i) {
    ACCEL_CHECK(transforms_[i] != nullptr, "Compose",
                "expected transforms, found an empty one at position {}", i);
  }
}

Example Compose::operator()(Example example) const {
  for (const Transform& transform : transforms_) example = transform(std::move(example));
  return example;
}

}  // namespace accel::data
