// batch_norm and group_norm as compositions of mean/var/sub/mul/rsqrt, so their gradients come
// from the core ops' backward formulas; only batch_norm's running-statistics update is written
// out, without recording. layer_norm is one fused kernel pair (layer_norm.cpp).
#include "accel/nn/functional/normalization.h"

#include <cmath>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {
namespace {

// [1, C, 1, ...]: the shape a per-channel [C] tensor takes to broadcast against `input`.
DimVector channel_shape(const Tensor& input) {
  DimVector shape(static_cast<size_t>(input.dim()), 1);
  shape[1] = input.size(1);
  return shape;
}

// A defined per-channel tensor must have C elements; returns it viewed as channel_shape.
Tensor per_channel(const Tensor& t, const Tensor& input, const char* op, const char* what) {
  ACCEL_CHECK(t.dim() == 1 && t.size(0) == input.size(1), op,
              "expected {} of shape [{}] (the input's channels, input {}), got {}", what,
              input.size(1), input.sizes(), t.sizes());
  return t.reshape(as_ref(channel_shape(input)));
}

// normalized * weight + bias where defined (weight/bias already broadcastable), in the
// input's dtype as PyTorch returns it (a bfloat16 input with float32 statistics or affine
// parameters is computed in float32, then rounded).
Tensor affine(const Tensor& normalized, const Tensor& weight, const Tensor& bias,
              ScalarType dtype) {
  Tensor out = weight.defined() ? mul(normalized, weight) : normalized;
  if (bias.defined()) out = add(out, bias);
  return out.to(dtype);
}

}  // namespace

namespace {

// Every dim of `input` but the channels (1).
DimVector non_channel_dims(const Tensor& input) {
  DimVector dims;
  for (int64_t d = 0; d < input.dim(); ++d) {
    if (d != 1) dims.push_back(d);
  }
  return dims;
}

void check_batch_norm_args(const Tensor& input, const Tensor& running_mean,
                           const Tensor& running_var, const char* op) {
  ACCEL_CHECK(input.dim() >= 2, op, "expected input of shape [N, C, *], got {}", input.sizes());
  ACCEL_CHECK(running_mean.defined() == running_var.defined(), op,
              "running_mean and running_var must both be given or both be undefined");
  if (running_mean.defined()) {
    per_channel(running_mean, input, op, "running_mean");
    per_channel(running_var, input, op, "running_var");
  }
}

// Training: normalizes by the batch statistics `mean` and `var` (biased, [1, C, 1, ...]) of
// `count` values per channel and moves the running statistics towards them (unbiased variance).
Tensor normalize_by_batch(const Tensor& input, const Tensor& mean, const Tensor& var, int64_t count,
                          const Tensor& running_mean, const Tensor& running_var,
                          const Tensor& weight, const Tensor& bias, double momentum, double eps,
                          const char* op) {
  ACCEL_CHECK(count > 1, op,
              "expected more than 1 value per channel when training, got input size {}",
              input.sizes());
  if (running_mean.defined()) {
    NoGradGuard no_grad;
    const double unbiased = static_cast<double>(count) / static_cast<double>(count - 1);
    // Tensor handles share storage: updating the copies updates the caller's buffers.
    Tensor mean_stat = running_mean, var_stat = running_var;
    mean_stat.mul_(1.0 - momentum)
        .add_(mean.reshape({input.size(1)}).to(mean_stat.dtype()), momentum);
    var_stat.mul_(1.0 - momentum)
        .add_(var.reshape({input.size(1)}).to(var_stat.dtype()), momentum * unbiased);
  }
  const Tensor w = weight.defined() ? per_channel(weight, input, op, "weight") : weight;
  const Tensor b = bias.defined() ? per_channel(bias, input, op, "bias") : bias;
  return affine(mul(sub(input, mean), rsqrt(add(var, eps))), w, b, input.dtype());
}

}  // namespace

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const Tensor& weight, const Tensor& bias, bool training, double momentum,
                  double eps) {
  check_batch_norm_args(input, running_mean, running_var, "batch_norm");
  ACCEL_CHECK(training || running_mean.defined(), "batch_norm",
              "running_mean and running_var are required when not training");
  if (!training) {
    const Tensor w = weight.defined() ? per_channel(weight, input, "batch_norm", "weight") : weight;
    const Tensor b = bias.defined() ? per_channel(bias, input, "batch_norm", "bias") : bias;
    const Tensor mean = per_channel(running_mean, input, "batch_norm", "running_mean");
    const Tensor var = per_channel(running_var, input, "batch_norm", "running_var");
    return affine(mul(sub(input, mean), rsqrt(add(var, eps))), w, b, input.dtype());
  }
  const DimVector dims = non_channel_dims(input);
  const int64_t count = input.size(1) > 0 ? input.numel() / input.size(1) : 0;
  const Tensor mean = input.mean(as_ref(dims), /*keepdim=*/true);
  const Tensor var = input.var(as_ref(dims), /*correction=*/0, /*keepdim=*/true);
  return normalize_by_batch(input, mean, var, count, running_mean, running_var, weight, bias,
                            momentum, eps, "batch_norm");
}

Tensor sync_batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                       const Tensor& weight, const Tensor& bias, double momentum, double eps,
                       const CrossProcessSum& sum_across) {
  const char* op = "sync_batch_norm";
  check_batch_norm_args(input, running_mean, running_var, op);
  const DimVector dims = non_channel_dims(input);
  const int64_t channels = input.size(1);
  const int64_t local_count = channels > 0 ? input.numel() / channels : 0;
  // Two passes over the union batch, as batch_norm's mean then var: the sums and the count,
  // then the squared deviations from the union's mean. 16-bit inputs (autocast) are summed in
  // float32, as PyTorch's SyncBatchNorm does: their own range would round the count and
  // overflow the sums.
  const ScalarType stats_type = promote_types(input.dtype(), kFloat32);
  const Tensor local_sums =
      cat({input.sum(as_ref(dims), /*keepdim=*/false, stats_type),
           full({1}, static_cast<double>(local_count), input.options().dtype(stats_type))},
          0);
  const Tensor sums = sum_across(local_sums);
  const int64_t count = static_cast<int64_t>(std::llround(sums[channels].item<double>()));
  const DimVector shape = channel_shape(input);
  const Tensor mean =
      div(sums.slice(0, 0, channels), static_cast<double>(count)).reshape(as_ref(shape));
  const Tensor deviations = sub(input, mean);
  const Tensor var =
      div(sum_across(mul(deviations, deviations).sum(as_ref(dims), false, stats_type)),
          static_cast<double>(count))
          .reshape(as_ref(shape));
  return normalize_by_batch(input, mean, var, count, running_mean, running_var, weight, bias,
                            momentum, eps, op);
}

Tensor group_norm(const Tensor& input, int64_t groups, const Tensor& weight, const Tensor& bias,
                  double eps) {
  ACCEL_CHECK(input.dim() >= 2, "group_norm", "expected input of shape [N, C, *], got {}",
              input.sizes());
  ACCEL_CHECK(groups > 0 && input.size(1) % groups == 0, "group_norm",
              "expected the number of channels {} to be divisible by num_groups {} (input {})",
              input.size(1), groups, input.sizes());
  const Tensor w = weight.defined() ? per_channel(weight, input, "group_norm", "weight") : weight;
  const Tensor b = bias.defined() ? per_channel(bias, input, "group_norm", "bias") : bias;
  const Tensor grouped = input.reshape({input.size(0), groups, -1});
  const Tensor mean = grouped.mean({2}, /*keepdim=*/true);
  const Tensor var = grouped.var({2}, /*correction=*/0, /*keepdim=*/true);
  const Tensor normalized = mul(sub(grouped, mean), rsqrt(add(var, eps))).reshape(input.sizes());
  return affine(normalized, w, b, input.dtype());
}

}  // namespace accel::nn::functional
