// What the loss functions share (internal to nn/functional): the reduction, the checks of
// inputs, targets and weights, and the float32 policy under autocast.
#pragma once

#include "accel/core/tensor.h"
#include "accel/nn/functional/losses.h"

namespace accel::nn::functional {

// The loss reduced as asked: unchanged, summed or averaged.
Tensor reduce(const Tensor& loss, Reduction reduction);

void check_floating(const char* op, const Tensor& t, const char* what);

// Float inputs of a loss as the op wants them: float32 under autocast, else unchanged.
Tensor loss_input(const char* op, const Tensor& t, const char* what);

// A regression target: floating targets follow the input's autocast policy, integer and
// bool ones promote to the input's dtype (as PyTorch's type promotion does).
Tensor loss_target(const char* op, const Tensor& target, const Tensor& input);

// An optional per-element weight, non-differentiable as in PyTorch, in the loss's dtype.
Tensor optional_weight(const Tensor& weight, const Tensor& like);

// Element-wise losses between input and target broadcast together (PyTorch broadcasts them).
void check_broadcastable(const char* op, const Tensor& input, const Tensor& target);

// An element-wise loss whose target broadcasts against an input of another shape: legal, but
// a [N, 1] prediction against a [N] target silently averages N x N differences. PyTorch warns.
void check_target_broadcasts(const char* op, const Tensor& input, const Tensor& target);

void check_same_shape(const char* op, const Tensor& input, const Tensor& target);

}  // namespace accel::nn::functional
