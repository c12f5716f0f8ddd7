// Distances and similarities between vectors (torch.nn.functional's normalize,
// cosine_similarity and pairwise_distance), composed of core ops that supply the gradients.
#pragma once

#include <cstdint>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

struct NormalizeFuncOptions {
  ACCEL_ARG(double, p) = 2.0;
  ACCEL_ARG(int64_t, dim) = 1;
  ACCEL_ARG(double, eps) = 1e-12;
};

struct CosineSimilarityFuncOptions {
  ACCEL_ARG(int64_t, dim) = 1;
  ACCEL_ARG(double, eps) = 1e-8;
};

struct PairwiseDistanceFuncOptions {
  ACCEL_ARG(double, p) = 2.0;
  ACCEL_ARG(double, eps) = 1e-6;
  ACCEL_ARG(bool, keepdim) = false;
};

// input / max(||input||_p, eps) along dim.
Tensor normalize(const Tensor& input, const NormalizeFuncOptions& options = {});

// The cosine of the angle between x1 and x2 (broadcast together) along dim: each divided by
// its norm, clamped below at eps, then multiplied and summed. As in PyTorch the clamp passes
// the gradient as if it were not there.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2,
                         const CosineSimilarityFuncOptions& options = {});

// ||x1 - x2 + eps||_p along the last dim (x1, x2 broadcast together).
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2,
                         const PairwiseDistanceFuncOptions& options = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
