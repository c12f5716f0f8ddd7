// Loss functions in functional form (torch.nn.functional's losses) and their option structs,
// which the loss modules reuse. Semantics and numerics are PyTorch's: reductions, class
// weights, ignore_index, label smoothing, probability targets, numerically stable logits.
#pragma once

#include <cstdint>
#include <utility>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

enum class Reduction { None, Mean, Sum };

// Declares a chainable option `name` of type T (LibTorch's TORCH_ARG): a setter returning
// *this, a getter, and the member holding it.
#define ACCEL_LOSS_ARG(T, name)             \
 public:                                    \
  auto& name(T value) {                     \
    name##_ = std::move(value);             \
    return *this;                           \
  }                                         \
  const T& name() const { return name##_; } \
                                            \
 private:                                   \
  T name##_

struct ReductionOptions {
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
};

struct CrossEntropyFuncOptions {
  ACCEL_LOSS_ARG(Tensor, weight);  // per-class weights [C]; undefined means all ones
  ACCEL_LOSS_ARG(int64_t, ignore_index) = -100;
  ACCEL_LOSS_ARG(double, label_smoothing) = 0.0;
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
};

struct NLLLossFuncOptions {
  ACCEL_LOSS_ARG(Tensor, weight);
  ACCEL_LOSS_ARG(int64_t, ignore_index) = -100;
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
};

struct SmoothL1LossFuncOptions {
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
  ACCEL_LOSS_ARG(double, beta) = 1.0;
};

struct HuberLossFuncOptions {
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
  ACCEL_LOSS_ARG(double, delta) = 1.0;
};

struct BinaryCrossEntropyFuncOptions {
  ACCEL_LOSS_ARG(Tensor, weight);  // broadcast against the input
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
};

struct BinaryCrossEntropyWithLogitsFuncOptions {
  ACCEL_LOSS_ARG(Tensor, weight);      // broadcast against the input
  ACCEL_LOSS_ARG(Tensor, pos_weight);  // weight of positive examples, broadcast (e.g. [C])
  ACCEL_LOSS_ARG(Reduction, reduction) = Reduction::Mean;
};

// kl_div's reduction adds batchmean (the sum divided by the batch size, KL's true value).
enum class KLDivReduction { None, Mean, Sum, BatchMean };

struct KLDivFuncOptions {
  ACCEL_LOSS_ARG(KLDivReduction, reduction) = KLDivReduction::Mean;
  ACCEL_LOSS_ARG(bool, log_target) = false;  // whether target holds log-probabilities
};

#undef ACCEL_LOSS_ARG

using MSELossFuncOptions = ReductionOptions;
using L1LossFuncOptions = ReductionOptions;

// input [N, C] or [N, C, d1, ...] (or [C]) of logits. target: class indices (int64, the
// input's shape without C) or class probabilities (floating, the input's shape).
Tensor cross_entropy(const Tensor& input, const Tensor& target,
                     const CrossEntropyFuncOptions& options = {});
// input of log-probabilities shaped like cross_entropy's; target holds class indices.
Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {});
Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {});
Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {});
Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                      const SmoothL1LossFuncOptions& options = {});
Tensor huber_loss(const Tensor& input, const Tensor& target,
                  const HuberLossFuncOptions& options = {});
// input: probabilities in [0, 1]; the logs are clamped at -100 as in PyTorch.
Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                            const BinaryCrossEntropyFuncOptions& options = {});
Tensor binary_cross_entropy_with_logits(
    const Tensor& input, const Tensor& target,
    const BinaryCrossEntropyWithLogitsFuncOptions& options = {});
// input: log-probabilities; target: probabilities (or log-probabilities with log_target).
Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
