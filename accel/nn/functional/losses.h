// Loss functions in functional form (torch.nn.functional's losses) and their option structs,
// which the loss modules reuse. Semantics and numerics are PyTorch's: reductions, class
// weights, ignore_index, label smoothing, probability targets, numerically stable logits.
#pragma once

#include <cstdint>

#include "accel/core/arg.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

enum class Reduction { None, Mean, Sum };

struct ReductionOptions {
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct CrossEntropyFuncOptions {
  ACCEL_ARG(Tensor, weight);  // per-class weights [C]; undefined means all ones
  ACCEL_ARG(int64_t, ignore_index) = -100;
  ACCEL_ARG(double, label_smoothing) = 0.0;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct NLLLossFuncOptions {
  ACCEL_ARG(Tensor, weight);
  ACCEL_ARG(int64_t, ignore_index) = -100;
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct SmoothL1LossFuncOptions {
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
  ACCEL_ARG(double, beta) = 1.0;
};

struct HuberLossFuncOptions {
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
  ACCEL_ARG(double, delta) = 1.0;
};

struct BinaryCrossEntropyFuncOptions {
  ACCEL_ARG(Tensor, weight);  // broadcast against the input
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct BinaryCrossEntropyWithLogitsFuncOptions {
  ACCEL_ARG(Tensor, weight);      // broadcast against the input
  ACCEL_ARG(Tensor, pos_weight);  // weight of positive examples, broadcast (e.g. [C])
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

// kl_div's reduction adds batchmean (the sum divided by the batch size, KL's true value).
enum class KLDivReduction { None, Mean, Sum, BatchMean };

struct KLDivFuncOptions {
  ACCEL_ARG(KLDivReduction, reduction) = KLDivReduction::Mean;
  ACCEL_ARG(bool, log_target) = false;  // whether target holds log-probabilities
};

struct PoissonNLLLossFuncOptions {
  ACCEL_ARG(bool, log_input) = true;  // whether input holds log-rates
  ACCEL_ARG(bool, full) = false;      // add the Stirling approximation of log(target!)
  ACCEL_ARG(double, eps) = 1e-8;      // keeps log(input) finite without log_input
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

struct GaussianNLLLossFuncOptions {
  ACCEL_ARG(bool, full) = false;  // add the constant log(2 pi) / 2
  ACCEL_ARG(double, eps) = 1e-6;  // variances are clamped below at eps
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
};

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
// The negative log-likelihood of target under a Poisson distribution of rate exp(input) (or
// input itself without log_input).
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                        const PoissonNLLLossFuncOptions& options = {});
// The negative log-likelihood of target under Gaussians of mean input and variance var:
// (log(var) + (input - target)^2 / var) / 2. var has the input's shape, or one dim of it
// is 1 or missing at the end (one variance shared along it); its entries must be >= 0.
Tensor gaussian_nll_loss(const Tensor& input, const Tensor& target, const Tensor& var,
                         const GaussianNLLLossFuncOptions& options = {});

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
