// Normalization layers in functional form (torch.nn.functional's batch_norm, instance_norm,
// layer_norm, group_norm, rms_norm and local_response_norm). batch_norm and layer_norm are fused
// kernels with fused backward passes, which are not themselves differentiable; group_norm is
// layer_norm's kernels over each group and instance_norm batch_norm's over each sample's
// channels; sync_batch_norm, rms_norm and local_response_norm are composed from core ops, so
// autograd differentiates them (twice, too). batch_norm, sync_batch_norm and instance_norm update
// the running statistics in training exactly as PyTorch does.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// input [N, C, *]. In training, normalizes by the batch statistics over every dim but 1 and,
// when running_mean/running_var are defined, updates them in place:
// running = (1 - momentum) * running + momentum * batch, with the unbiased batch variance.
// Otherwise normalizes by the running statistics. weight/bias [C] are optional.
Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const Tensor& weight = {}, const Tensor& bias = {}, bool training = false,
                  double momentum = 0.1, double eps = 1e-5);

// Sums a tensor over the processes of a data-parallel job, differentiably (the gradient is the
// sum of the processes' gradients): distributed::convert_sync_batchnorm provides one.
using CrossProcessSum = std::function<Tensor(const Tensor&)>;

// batch_norm in training whose statistics are those of the union of every process's batch
// (SyncBatchNorm): per-channel sums, counts and squared deviations go through `sum_across`. Each
// process's running statistics move towards the union's.
Tensor sync_batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                       const Tensor& weight, const Tensor& bias, double momentum, double eps,
                       const CrossProcessSum& sum_across);

// Normalizes over the trailing dims given by normalized_shape; weight/bias have that shape.
// Computed in the promoted type of the three tensors, the result in the input's dtype.
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5);

// input [N, C, *]: normalizes each of `groups` groups of C / groups channels over the group's
// channels and spatial dims; weight/bias [C] are optional.
Tensor group_norm(const Tensor& input, int64_t groups, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5);

// input [N, C, *]: normalizes each channel of each sample over its spatial dims (use_input_stats),
// or by the running statistics. With use_input_stats and running_mean/running_var defined ([C]),
// they move towards the batch's per-channel statistics averaged over the samples, as batch_norm's.
// weight/bias [C] are optional.
Tensor instance_norm(const Tensor& input, const Tensor& running_mean = {},
                     const Tensor& running_var = {}, const Tensor& weight = {},
                     const Tensor& bias = {}, bool use_input_stats = true, double momentum = 0.1,
                     double eps = 1e-5);

// Root-mean-square normalization over the trailing dims given by normalized_shape:
// x / sqrt(mean(x^2) + eps) * weight (weight optional, of normalized_shape). eps defaults to the
// machine epsilon of the computing type (float32 for 16-bit inputs, which are computed in float32
// and rounded back).
Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                std::optional<double> eps = std::nullopt);

// input [N, C, *]: each value divided by (k + alpha / size * sum of squares over the `size`
// channels around it)^beta, channels past either end counting as zeros.
Tensor local_response_norm(const Tensor& input, int64_t size, double alpha = 1e-4,
                           double beta = 0.75, double k = 1.0);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
