// normalize, cosine_similarity and pairwise_distance as norms, divisions and sums.
#include "accel/nn/functional/distance.h"

#include "accel/base/error.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

namespace {

void check_floating_inputs(const char* op, const Tensor& x1, const Tensor& x2) {
  ACCEL_CHECK(x1.is_floating_point() && x2.is_floating_point(), op,
              "expected floating point inputs, got {} and {}", x1.dtype(), x2.dtype());
}

}  // namespace

Tensor normalize(const Tensor& input, const NormalizeFuncOptions& options) {
  constexpr const char* op = "normalize";
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
  const int64_t dim = wrap_dim(options.dim(), input.dim(), op);
  return input / norm(input, options.p(), {dim}, true).clamp_min(options.eps());
}

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2,
                         const CosineSimilarityFuncOptions& options) {
  constexpr const char* op = "cosine_similarity";
  check_floating_inputs(op, x1, x2);
  const DimVector shape = broadcast_shapes(x1.sizes(), x2.sizes(), op);
  const Tensor a = x1.expand(as_ref(shape));
  const Tensor b = x2.expand(as_ref(shape));
  const int64_t dim = wrap_dim(options.dim(), static_cast<int64_t>(shape.size()), op);
  // The norm clamped at eps in value only: the gradient flows through the unclamped norm.
  auto clamped_norm = [&](const Tensor& t) {
    const Tensor n = norm(t, 2, {dim}, true);
    return n + (n.clamp_min(options.eps()) - n).detach();
  };
  return ((a / clamped_norm(a)) * (b / clamped_norm(b))).sum({dim});
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2,
                         const PairwiseDistanceFuncOptions& options) {
  constexpr const char* op = "pairwise_distance";
  check_floating_inputs(op, x1, x2);
  const Tensor diff = x1 - x2 + options.eps();
  ACCEL_CHECK(diff.dim() > 0, op, "expected inputs with at least one dim, got 0-dim tensors");
  return norm(diff, options.p(), {-1}, options.keepdim());
}

}  // namespace accel::nn::functional
