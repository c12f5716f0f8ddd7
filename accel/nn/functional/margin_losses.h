// Margin, ranking and embedding losses in functional form (torch.nn.functional's
// margin_ranking_loss, hinge_embedding_loss, soft_margin_loss, multilabel_soft_margin_loss,
// multilabel_margin_loss, multi_margin_loss, cosine_embedding_loss, triplet_margin_loss,
// triplet_margin_with_distance_loss) and their option structs,
// which the loss modules reuse. Compositions of core ops with PyTorch's formulas, so the
// gradients are PyTorch's, kinks included.
#pragma once

#include <cstdint>
#include <functional>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"
#include "accel/nn/functional/losses.h"

namespace accel::nn::functional {

struct MarginRankingLossFuncOptions {
  ACCEL_ARG(double, margin) = 0.0;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct HingeEmbeddingLossFuncOptions {
  ACCEL_ARG(double, margin) = 1.0;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

using SoftMarginLossFuncOptions = ReductionOptions;

struct MultilabelSoftMarginLossFuncOptions {
  ACCEL_ARG(Tensor, weight);  // per-class weights [C]
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

using MultilabelMarginLossFuncOptions = ReductionOptions;

struct MultiMarginLossFuncOptions {
  ACCEL_ARG(int64_t, p) = 1;  // 1 or 2
  ACCEL_ARG(double, margin) = 1.0;
  ACCEL_ARG(Tensor, weight);  // per-class weights [C]
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct CosineEmbeddingLossFuncOptions {
  ACCEL_ARG(double, margin) = 0.0;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct TripletMarginLossFuncOptions {
  ACCEL_ARG(double, margin) = 1.0;
  ACCEL_ARG(double, p) = 2.0;
  ACCEL_ARG(double, eps) = 1e-6;
  ACCEL_ARG(bool, swap) = false;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

// max(0, -target * (input1 - input2) + margin); target holds 1 or -1.
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           const MarginRankingLossFuncOptions& options = {});

// input where target is 1, max(0, margin - input) where target is -1.
Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                            const HingeEmbeddingLossFuncOptions& options = {});

// log(1 + exp(-target * input)); target holds 1 or -1.
Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                        const SoftMarginLossFuncOptions& options = {});

// Binary cross-entropy of sigmoid(input) against 0/1 targets, averaged over the C classes of
// each sample: input and target [N, C] (or [C]).
Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                                   const MultilabelSoftMarginLossFuncOptions& options = {});

// The multi-class hinge loss: for input [N, C] (or [C]) and class indices target [N] (or a
// 0-dim one), sum over i != y of max(0, margin - x[y] + x[i])^p / C, times weight[y].
Tensor multi_margin_loss(const Tensor& input, const Tensor& target,
                         const MultiMarginLossFuncOptions& options = {});

// 1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1; x1 and x2
// [N, D] (or [D]), target [N] (or 0-dim).
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             const CosineEmbeddingLossFuncOptions& options = {});

// max(0, margin + d(anchor, positive) - d(anchor, negative)) with d = pairwise_distance(p,
// eps); swap uses min(d(anchor, negative), d(positive, negative)) instead.
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           const TripletMarginLossFuncOptions& options = {});

// The distance between the rows of two tensors: [N] (or 0-dim) for inputs [N, D] (or [D]).
using DistanceFunction = std::function<Tensor(const Tensor&, const Tensor&)>;

struct TripletMarginWithDistanceLossFuncOptions {
  // Unset: pairwise_distance (Euclidean).
  ACCEL_ARG(DistanceFunction, distance_function);
  ACCEL_ARG(double, margin) = 1.0;
  ACCEL_ARG(bool, swap) = false;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

// triplet_margin_loss with any distance function.
Tensor triplet_margin_with_distance_loss(
    const Tensor& anchor, const Tensor& positive, const Tensor& negative,
    const TripletMarginWithDistanceLossFuncOptions& options = {});

// The multi-label hinge loss: for input [N, C] (or [C]) and target of the same shape holding
// each sample's classes, ended by the first -1, the sum over its classes j and the other
// classes i of max(0, 1 - (x[j] - x[i])), divided by C.
Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target,
                              const MultilabelMarginLossFuncOptions& options = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
