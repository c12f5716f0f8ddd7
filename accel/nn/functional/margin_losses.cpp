// The margin, ranking and embedding losses of margin_losses.h as PyTorch writes them: clamps,
// selections with where, log-sigmoids and distances, whose gradients autograd supplies.
// multilabel_margin_loss compares every listed class with every other class at once, [N, C, C].
#include "accel/nn/functional/margin_losses.h"

#include "accel/base/error.h"
#include "accel/core/activation.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/distance.h"
#include "accel/nn/functional/loss_support.h"
#include "accel/nn/functional/one_hot.h"

namespace accel::nn::functional {

namespace {

// A sample-dim loss on one sample (input without its batch dim) as a batch of one; the
// unreduced result drops the batch dim again.
template <typename Loss>
Tensor as_batch_of_one(bool unbatched, Reduction reduction, Loss loss) {
  const Tensor out = loss();
  return unbatched && reduction == Reduction::None ? out.squeeze(0) : out;
}

}  // namespace

Tensor margin_ranking_loss(const Tensor& input1_, const Tensor& input2_, const Tensor& target_,
                           const MarginRankingLossFuncOptions& options) {
  constexpr const char* op = "margin_ranking_loss";
  const Tensor input1 = loss_input(op, input1_, "input1");
  const Tensor input2 = loss_input(op, input2_, "input2");
  const Tensor target = loss_target(op, target_, input1);
  ACCEL_CHECK(input1.dim() == input2.dim() && input1.dim() == target.dim(), op,
              "expected input1, input2 and target of the same number of dims, got {}, {} and {}",
              input1.sizes(), input2.sizes(), target.sizes());
  check_broadcastable(op, input1 - input2, target);
  return reduce((-target * (input1 - input2) + options.margin()).clamp_min(0), options.reduction());
}

Tensor hinge_embedding_loss(const Tensor& input_, const Tensor& target_,
                            const HingeEmbeddingLossFuncOptions& options) {
  constexpr const char* op = "hinge_embedding_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_broadcastable(op, input, target);
  const Tensor below_margin = where(target != 1, (options.margin() - input).clamp_min(0), 0.0);
  return reduce(below_margin + where(target != -1, input, 0.0), options.reduction());
}

Tensor soft_margin_loss(const Tensor& input_, const Tensor& target_,
                        const SoftMarginLossFuncOptions& options) {
  constexpr const char* op = "soft_margin_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_broadcastable(op, input, target);
  return reduce(softplus(-target * input), options.reduction());
}

Tensor multilabel_soft_margin_loss(const Tensor& input_, const Tensor& target_,
                                   const MultilabelSoftMarginLossFuncOptions& options) {
  constexpr const char* op = "multilabel_soft_margin_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  ACCEL_CHECK(input.dim() > 0, op, "expected an input of shape [N, C] or [C], got a 0-dim tensor");
  check_same_shape(op, input, target);
  Tensor loss = -(target * log_sigmoid(input) + (1 - target) * log_sigmoid(-input));
  const Tensor weight = optional_weight(options.weight(), input);
  if (weight.defined()) {
    check_broadcastable(op, input, weight);
    loss = loss * weight;
  }
  const int64_t classes = input.size(-1);
  return reduce(loss.sum({-1}) / static_cast<double>(classes), options.reduction());
}

Tensor multi_margin_loss(const Tensor& input_, const Tensor& target_,
                         const MultiMarginLossFuncOptions& options) {
  constexpr const char* op = "multi_margin_loss";
  ACCEL_CHECK(options.p() == 1 || options.p() == 2, op, "p must be 1 or 2, got {}", options.p());
  const Tensor input_in = loss_input(op, input_, "input");
  ACCEL_CHECK(input_in.dim() == 1 || input_in.dim() == 2, op,
              "expected an input of shape [N, C] or [C], got {}", input_in.sizes());
  const bool unbatched = input_in.dim() == 1;
  const Tensor input = unbatched ? input_in.unsqueeze(0) : input_in;
  const Tensor target = target_.reshape({-1});
  ACCEL_CHECK(target_.dtype() == kInt64 && target_.dim() <= 1 && target.size(0) == input.size(0),
              op, "expected int64 class indices of shape [{}] for input {}, got {} of shape {}",
              input.size(0), input_in.sizes(), target_.dtype(), target_.sizes());
  const int64_t classes = input.size(1);
  const Tensor index = target.unsqueeze(1);
  Tensor loss = (options.margin() - input.gather(1, index) + input).clamp_min(0);
  if (options.p() == 2) loss = loss * loss;
  const Tensor weight = optional_weight(options.weight(), input);
  if (weight.defined()) {
    ACCEL_CHECK(weight.dim() == 1 && weight.size(0) == classes, op,
                "expected a weight of shape [{}] (one per class), got {}", classes, weight.sizes());
    loss = loss * weight.index_select(0, target).unsqueeze(1);
  }
  // The target class itself is no margin violation.
  loss = where(one_hot(index.squeeze(1), classes) == 1, 0.0, loss);
  return as_batch_of_one(unbatched, options.reduction(), [&] {
    return reduce(loss.sum({1}) / static_cast<double>(classes), options.reduction());
  });
}

Tensor cosine_embedding_loss(const Tensor& input1_, const Tensor& input2_, const Tensor& target_,
                             const CosineEmbeddingLossFuncOptions& options) {
  constexpr const char* op = "cosine_embedding_loss";
  const Tensor input1 = loss_input(op, input1_, "input1");
  const Tensor input2 = loss_input(op, input2_, "input2");
  const Tensor target = loss_target(op, target_, input1);
  const bool batched = target.dim() == 1;
  ACCEL_CHECK(
      target.dim() <= 1 && input1.dim() == target.dim() + 1 && input2.dim() == target.dim() + 1 &&
          (!batched || (input1.size(0) == target.size(0) && input2.size(0) == target.size(0))),
      op,
      "expected inputs [N, D] with target [N], or inputs [D] with a 0-dim target, got "
      "{}, {} and target {}",
      input1.sizes(), input2.sizes(), target.sizes());
  constexpr double kEpsilon = 1e-12;  // keeps zero vectors' magnitudes off 0, as PyTorch
  const int64_t dim = target.dim();
  const Tensor dot = (input1 * input2).sum({dim});
  const Tensor squared1 = (input1 * input1).sum({dim}) + kEpsilon;
  const Tensor squared2 = (input2 * input2).sum({dim}) + kEpsilon;
  const Tensor cosine = dot / (squared1 * squared2).sqrt();
  const Tensor similar = where(target == 1, 1 - cosine, 0.0);
  const Tensor dissimilar = where(target == -1, (cosine - options.margin()).clamp_min(0), 0.0);
  return reduce(similar + dissimilar, options.reduction());
}

namespace {

// The triplet losses once their inputs are checked: d(anchor, positive) against
// d(anchor, negative) (or, with swap, the smaller of it and d(positive, negative)).
Tensor triplet_loss(const Tensor& anchor_, const Tensor& positive_, const Tensor& negative_,
                    const DistanceFunction& distance, double margin, bool swap, Reduction reduction,
                    const char* op) {
  const Tensor anchor = loss_input(op, anchor_, "anchor");
  const Tensor positive = loss_input(op, positive_, "positive");
  const Tensor negative = loss_input(op, negative_, "negative");
  ACCEL_CHECK(anchor.dim() == positive.dim() && anchor.dim() == negative.dim(), op,
              "expected anchor, positive and negative of the same number of dims, got {}, {} "
              "and {}",
              anchor.sizes(), positive.sizes(), negative.sizes());
  ACCEL_CHECK(margin > 0, op, "margin must be positive, got {}", margin);
  const Tensor to_positive = distance(anchor, positive);
  Tensor to_negative = distance(anchor, negative);
  if (swap) to_negative = minimum(to_negative, distance(positive, negative));
  return reduce((margin + to_positive - to_negative).clamp_min(0), reduction);
}

}  // namespace

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           const TripletMarginLossFuncOptions& options) {
  const auto distance = PairwiseDistanceFuncOptions().p(options.p()).eps(options.eps());
  return triplet_loss(
      anchor, positive, negative,
      [&](const Tensor& a, const Tensor& b) { return pairwise_distance(a, b, distance); },
      options.margin(), options.swap(), options.reduction(), "triplet_margin_loss");
}

Tensor triplet_margin_with_distance_loss(const Tensor& anchor, const Tensor& positive,
                                         const Tensor& negative,
                                         const TripletMarginWithDistanceLossFuncOptions& options) {
  const DistanceFunction euclidean = [](const Tensor& a, const Tensor& b) {
    return pairwise_distance(a, b);
  };
  return triplet_loss(anchor, positive, negative,
                      options.distance_function() ? options.distance_function() : euclidean,
                      options.margin(), options.swap(), options.reduction(),
                      "triplet_margin_with_distance_loss");
}

Tensor multilabel_margin_loss(const Tensor& input_, const Tensor& target_,
                              const MultilabelMarginLossFuncOptions& options) {
  constexpr const char* op = "multilabel_margin_loss";
  const Tensor input_in = loss_input(op, input_, "input");
  ACCEL_CHECK(input_in.dim() == 1 || input_in.dim() == 2, op,
              "expected an input of shape [N, C] or [C], got {}", input_in.sizes());
  ACCEL_CHECK(target_.dtype() == kInt64 && target_.sizes() == input_in.sizes(), op,
              "expected int64 class lists of the input's shape {}, got {} of shape {}",
              input_in.sizes(), target_.dtype(), target_.sizes());
  const bool unbatched = input_in.dim() == 1;
  const Tensor input = unbatched ? input_in.unsqueeze(0) : input_in;
  const Tensor target = unbatched ? target_.unsqueeze(0) : target_;
  const int64_t classes = input.size(1);
  if (target.numel() > 0) {
    const int64_t low = target.min().item<int64_t>(), high = target.max().item<int64_t>();
    ACCEL_CHECK(low >= -1 && high < classes, op,
                "target classes must lie in [-1, {}), got values from {} to {}", classes, low,
                high);
  }
  // A sample's classes are the entries before its first -1.
  const Tensor listed = ge(target, 0).to(kInt64).cumprod(1);
  const Tensor classes_of = target.clamp_min(0);
  const Tensor is_target = gt(zeros_like(target).scatter_add(1, classes_of, listed), 0);
  // [N, j, i]: target class j's margin against class i.
  const Tensor margins =
      (1 - input.gather(1, classes_of).unsqueeze(2) + input.unsqueeze(1)).clamp_min(0);
  const Tensor counted =
      logical_and(gt(listed, 0).unsqueeze(2), logical_not(is_target).unsqueeze(1));
  const Tensor loss = where(counted, margins, 0.0).sum({1, 2}) / static_cast<double>(classes);
  return as_batch_of_one(unbatched, options.reduction(),
                         [&] { return reduce(loss, options.reduction()); });
}

}  // namespace accel::nn::functional
