// Loss modules (torch.nn's CrossEntropyLoss, MSELoss, TripletMarginLoss, CTCLoss, ...): thin
// Modules over the functional losses in functional/losses.h, margin_losses.h and ctc_loss.h,
// holding the same
// option structs. Class weights and pos_weight are registered buffers, so they follow the
// module through to(dtype/device) and state_dict.
#pragma once

#include "accel/nn/functional/ctc_loss.h"
#include "accel/nn/functional/losses.h"
#include "accel/nn/functional/margin_losses.h"
#include "accel/nn/module.h"

namespace accel::nn {

using CrossEntropyLossOptions = functional::CrossEntropyFuncOptions;
using NLLLossOptions = functional::NLLLossFuncOptions;
using MSELossOptions = functional::MSELossFuncOptions;
using L1LossOptions = functional::L1LossFuncOptions;
using SmoothL1LossOptions = functional::SmoothL1LossFuncOptions;
using HuberLossOptions = functional::HuberLossFuncOptions;
using BCELossOptions = functional::BinaryCrossEntropyFuncOptions;
using BCEWithLogitsLossOptions = functional::BinaryCrossEntropyWithLogitsFuncOptions;
using KLDivLossOptions = functional::KLDivFuncOptions;
using PoissonNLLLossOptions = functional::PoissonNLLLossFuncOptions;
using GaussianNLLLossOptions = functional::GaussianNLLLossFuncOptions;
using HingeEmbeddingLossOptions = functional::HingeEmbeddingLossFuncOptions;
using SoftMarginLossOptions = functional::SoftMarginLossFuncOptions;
using MultiLabelSoftMarginLossOptions = functional::MultilabelSoftMarginLossFuncOptions;
using MultiMarginLossOptions = functional::MultiMarginLossFuncOptions;
using MarginRankingLossOptions = functional::MarginRankingLossFuncOptions;
using CosineEmbeddingLossOptions = functional::CosineEmbeddingLossFuncOptions;
using TripletMarginLossOptions = functional::TripletMarginLossFuncOptions;
using TripletMarginWithDistanceLossOptions = functional::TripletMarginWithDistanceLossFuncOptions;
using MultiLabelMarginLossOptions = functional::MultilabelMarginLossFuncOptions;
using CTCLossOptions = functional::CTCLossFuncOptions;

// What every loss module holds: the options given at construction, with their weight
// tensors registered as buffers.
template <typename Options>
class LossModule : public Module {
 public:
  explicit LossModule(Options options = {}) : options(std::move(options)) {
    if constexpr (requires(Options o) { o.weight(); }) {
      if (this->options.weight().defined()) register_buffer("weight", this->options.weight());
    }
    if constexpr (requires(Options o) { o.pos_weight(); }) {
      if (this->options.pos_weight().defined()) {
        register_buffer("pos_weight", this->options.pos_weight());
      }
    }
  }
  // A loss takes (input, target, ...); the one-argument Module::forward stays visible (and
  // throws).
  using Module::forward;

  // The weight tensors here are the registered buffers themselves (the same tensor objects).
  Options options;
};

// A loss of (input, target): `Fn(input, target, options)`. Each loss derives its own class so
// name() reports "MSELoss" and so on.
template <typename Options, Tensor (*Fn)(const Tensor&, const Tensor&, const Options&)>
class LossImpl : public LossModule<Options> {
 public:
  using LossModule<Options>::LossModule;
  using LossModule<Options>::forward;
  Tensor forward(const Tensor& input, const Tensor& target) {
    return Fn(input, target, this->options);
  }
};

// A loss of three tensors (input1, input2, target; anchor, positive, negative; input, target,
// var): `Fn(a, b, c, options)`.
template <typename Options,
          Tensor (*Fn)(const Tensor&, const Tensor&, const Tensor&, const Options&)>
class ThreeInputLossImpl : public LossModule<Options> {
 public:
  using LossModule<Options>::LossModule;
  using LossModule<Options>::forward;
  Tensor forward(const Tensor& a, const Tensor& b, const Tensor& c) {
    return Fn(a, b, c, this->options);
  }
};

#define ACCEL_DECLARE_LOSS(Name, Base, function)                         \
  class Name##Impl : public Base<Name##Options, &functional::function> { \
   public:                                                               \
    using Base::Base;                                                    \
  };                                                                     \
  ACCEL_MODULE(Name)

ACCEL_DECLARE_LOSS(CrossEntropyLoss, LossImpl, cross_entropy);
ACCEL_DECLARE_LOSS(NLLLoss, LossImpl, nll_loss);
ACCEL_DECLARE_LOSS(MSELoss, LossImpl, mse_loss);
ACCEL_DECLARE_LOSS(L1Loss, LossImpl, l1_loss);
ACCEL_DECLARE_LOSS(SmoothL1Loss, LossImpl, smooth_l1_loss);
ACCEL_DECLARE_LOSS(HuberLoss, LossImpl, huber_loss);
ACCEL_DECLARE_LOSS(BCELoss, LossImpl, binary_cross_entropy);
ACCEL_DECLARE_LOSS(BCEWithLogitsLoss, LossImpl, binary_cross_entropy_with_logits);
ACCEL_DECLARE_LOSS(KLDivLoss, LossImpl, kl_div);
ACCEL_DECLARE_LOSS(PoissonNLLLoss, LossImpl, poisson_nll_loss);
ACCEL_DECLARE_LOSS(GaussianNLLLoss, ThreeInputLossImpl, gaussian_nll_loss);
ACCEL_DECLARE_LOSS(HingeEmbeddingLoss, LossImpl, hinge_embedding_loss);
ACCEL_DECLARE_LOSS(SoftMarginLoss, LossImpl, soft_margin_loss);
ACCEL_DECLARE_LOSS(MultiLabelSoftMarginLoss, LossImpl, multilabel_soft_margin_loss);
ACCEL_DECLARE_LOSS(MultiMarginLoss, LossImpl, multi_margin_loss);
ACCEL_DECLARE_LOSS(MarginRankingLoss, ThreeInputLossImpl, margin_ranking_loss);
ACCEL_DECLARE_LOSS(CosineEmbeddingLoss, ThreeInputLossImpl, cosine_embedding_loss);
ACCEL_DECLARE_LOSS(TripletMarginLoss, ThreeInputLossImpl, triplet_margin_loss);
ACCEL_DECLARE_LOSS(TripletMarginWithDistanceLoss, ThreeInputLossImpl,
                   triplet_margin_with_distance_loss);
ACCEL_DECLARE_LOSS(MultiLabelMarginLoss, LossImpl, multilabel_margin_loss);

#undef ACCEL_DECLARE_LOSS

class CTCLossImpl : public LossModule<CTCLossOptions> {
 public:
  using LossModule<CTCLossOptions>::LossModule;
  using LossModule<CTCLossOptions>::forward;
  Tensor forward(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                 const Tensor& target_lengths) {
    return functional::ctc_loss(log_probs, targets, input_lengths, target_lengths, options);
  }
};
ACCEL_MODULE(CTCLoss);

}  // namespace accel::nn
