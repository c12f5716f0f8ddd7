// CosineSimilarity and PairwiseDistance forward to their functional forms.
#include "accel/nn/modules/distance.h"

namespace accel::nn {

Tensor CosineSimilarityImpl::forward(const Tensor& x1, const Tensor& x2) {
  return functional::cosine_similarity(x1, x2, options);
}

std::string CosineSimilarityImpl::extra_repr() const {
  return fmt::format("dim={}, eps={}", options.dim(), options.eps());
}

Tensor PairwiseDistanceImpl::forward(const Tensor& x1, const Tensor& x2) {
  return functional::pairwise_distance(x1, x2, options);
}

std::string PairwiseDistanceImpl::extra_repr() const {
  return fmt::format("p={}, eps={}, keepdim={}", options.p(), options.eps(), options.keepdim());
}

}  // namespace accel::nn
