// Loss modules (torch.nn's CrossEntropyLoss, MSELoss, ...): thin Modules over the functional
// losses in functional/losses.h, holding the same option structs. Class weights and pos_weight
// are registered buffers, so they follow the module through to(dtype/device) and state_dict.
#pragma once

#include "accel/nn/functional/losses.h"
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

// The shared body of every loss module: `Fn(input, target, options)` with the options given
// at construction. Each loss derives its own class so name() reports "MSELoss" and so on.
template <typename Options, Tensor (*Fn)(const Tensor&, const Tensor&, const Options&)>
class LossImpl : public Module {
 public:
  explicit LossImpl(Options options = {}) : options(std::move(options)) {
    if constexpr (requires(Options o) { o.weight(); }) {
      if (this->options.weight().defined()) register_buffer("weight", this->options.weight());
    }
    if constexpr (requires(Options o) { o.pos_weight(); }) {
      if (this->options.pos_weight().defined()) {
        register_buffer("pos_weight", this->options.pos_weight());
      }
    }
  }
  // A loss takes (input, target); the one-argument Module::forward stays visible (and throws).
  using Module::forward;
  Tensor forward(const Tensor& input, const Tensor& target) { return Fn(input, target, options); }

  // The weight tensors here are the registered buffers themselves (the same tensor objects).
  Options options;
};

#define ACCEL_DECLARE_LOSS(Name, function)                                   \
  class Name##Impl : public LossImpl<Name##Options, &functional::function> { \
   public:                                                                   \
    using LossImpl::LossImpl;                                                \
  };                                                                         \
  ACCEL_MODULE(Name)

ACCEL_DECLARE_LOSS(CrossEntropyLoss, cross_entropy);
ACCEL_DECLARE_LOSS(NLLLoss, nll_loss);
ACCEL_DECLARE_LOSS(MSELoss, mse_loss);
ACCEL_DECLARE_LOSS(L1Loss, l1_loss);
ACCEL_DECLARE_LOSS(SmoothL1Loss, smooth_l1_loss);
ACCEL_DECLARE_LOSS(HuberLoss, huber_loss);
ACCEL_DECLARE_LOSS(BCELoss, binary_cross_entropy);
ACCEL_DECLARE_LOSS(BCEWithLogitsLoss, binary_cross_entropy_with_logits);
ACCEL_DECLARE_LOSS(KLDivLoss, kl_div);

#undef ACCEL_DECLARE_LOSS

}  // namespace accel::nn
