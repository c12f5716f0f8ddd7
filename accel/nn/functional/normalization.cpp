// batch_norm as fused kernels (kernels/backend.h: per-channel statistics, one normalizing pass,
// per-channel gradient sums and one pass for the input's gradient); sync_batch_norm as a
// composition of mean/var/sub/mul/rsqrt, whose gradients come from the core ops' backward
// formulas (its sums cross processes between them); group_norm as layer_norm's kernels over
// each group, then the per-channel affine; instance_norm as batch_norm over a batch of one whose
// channels are every sample's. The running statistics' update is written out, without recording.
// layer_norm and rms_norm are in layer_norm.cpp.
#include "accel/nn/functional/normalization.h"

#include <cmath>

#include "accel/base/error.h"
#include "accel/core/autograd/function.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"

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

// Moves the running statistics (when defined) towards the batch's: `mean` and the biased `var`
// ([C] or [1, C, 1, ...]) of `count` values per channel, the variance made unbiased.
void update_running_statistics(const Tensor& running_mean, const Tensor& running_var,
                               const Tensor& mean, const Tensor& var, int64_t count,
                               double momentum) {
  if (!running_mean.defined()) return;
  NoGradGuard no_grad;
  const int64_t channels = running_mean.size(0);
  const double unbiased = static_cast<double>(count) / static_cast<double>(count - 1);
  // Tensor handles share storage: updating the copies updates the caller's buffers.
  Tensor mean_stat = running_mean, var_stat = running_var;
  mean_stat.mul_(1.0 - momentum).add_(mean.reshape({channels}).to(mean_stat.dtype()), momentum);
  var_stat.mul_(1.0 - momentum)
      .add_(var.reshape({channels}).to(var_stat.dtype()), momentum * unbiased);
}

void check_count(int64_t count, const Tensor& input, const char* op) {
  ACCEL_CHECK(count > 1, op,
              "expected more than 1 value per channel when training, got input size {}",
              input.sizes());
}

// Training: normalizes by the batch statistics `mean` and `var` (biased, [1, C, 1, ...]) of
// `count` values per channel and moves the running statistics towards them (unbiased variance).
Tensor normalize_by_batch(const Tensor& input, const Tensor& mean, const Tensor& var, int64_t count,
                          const Tensor& running_mean, const Tensor& running_var,
                          const Tensor& weight, const Tensor& bias, double momentum, double eps,
                          const char* op) {
  check_count(count, input, op);
  update_running_statistics(running_mean, running_var, mean, var, count, momentum);
  const Tensor w = weight.defined() ? per_channel(weight, input, op, "weight") : weight;
  const Tensor b = bias.defined() ? per_channel(bias, input, op, "bias") : bias;
  return affine(mul(sub(input, mean), rsqrt(add(var, eps))), w, b, input.dtype());
}

// A per-channel tensor as the fused kernels read it: detached, in the accumulate type,
// contiguous (undefined stays undefined).
Tensor channel_operand(const Tensor& t, ScalarType accumulate) {
  return t.defined() ? t.detach().to(accumulate).contiguous() : Tensor();
}

const void* data_or_null(const Tensor& t) { return t.defined() ? t.data_ptr() : nullptr; }

}  // namespace

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const Tensor& weight, const Tensor& bias, bool training, double momentum,
                  double eps) {
  constexpr const char* op = "batch_norm";
  check_batch_norm_args(input, running_mean, running_var, op);
  ACCEL_CHECK(training || running_mean.defined(), op,
              "running_mean and running_var are required when not training");
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  if (weight.defined()) per_channel(weight, input, op, "weight");
  if (bias.defined()) per_channel(bias, input, op, "bias");
  for (const Tensor* t : {&weight, &bias, &running_mean, &running_var}) {
    ACCEL_CHECK(!t->defined() || t->device() == input.device(), op,
                "expected weight, bias and running statistics on the input's device {}, got one "
                "on {}",
                input.device(), t->device());
  }
  const ScalarType type = input.dtype();
  const ScalarType accumulate = type == kFloat64 ? kFloat64 : kFloat32;
  const TensorOptions channel_options = input.options().dtype(accumulate);
  const Tensor x = input.contiguous();
  const int64_t channels = x.size(1);
  BatchNormShape shape{x.size(0), channels, 1};
  for (int64_t d = 2; d < x.dim(); ++d) shape.spatial *= x.size(d);
  const Stream stream = current_stream(x.device());
  const Backend& kernels = backend(x.device());

  // The statistics the input is normalized by: the batch's (moving the running ones towards
  // them), or the running ones.
  Tensor mean, invstd;
  if (training) {
    check_count(shape.count(), input, op);
    mean = empty({channels}, channel_options);
    const Tensor var = empty({channels}, channel_options);
    kernels.batch_norm_statistics(type, x.data_ptr(), mean.data_ptr(), var.data_ptr(), shape,
                                  stream);
    update_running_statistics(running_mean, running_var, mean, var, shape.count(), momentum);
    invstd = rsqrt(var + eps);
  } else {
    mean = channel_operand(running_mean, accumulate);
    invstd = rsqrt(channel_operand(running_var, accumulate) + eps).contiguous();
  }
  const Tensor w = channel_operand(weight, accumulate);
  const Tensor b = channel_operand(bias, accumulate);
  const Tensor out = empty(x.sizes(), x.options());
  kernels.batch_norm_normalize(type, x.data_ptr(), mean.data_ptr(), invstd.data_ptr(),
                               data_or_null(w), data_or_null(b), out.data_ptr(), shape, stream);

  if (autograd::should_record(x, weight, bias)) {
    autograd::record(
        op, {x, weight, bias}, out,
        [sx = autograd::SavedTensor(x), saved_mean = autograd::SavedTensor(mean), invstd,
         sw = autograd::SavedTensor(w), shape, training,
         weight_type = weight.defined() ? weight.dtype() : type,
         bias_type = bias.defined() ? bias.dtype() : type](const Tensor& grad,
                                                           autograd::GradInputs& in) {
          // The mean and weight may share the running_mean's and the weight's storage: saved,
          // they raise an error if changed in place before this backward.
          const Tensor& x = sx.get();
          const Tensor& mean = saved_mean.get();
          const Tensor& w = sw.get();
          const Tensor g = grad.to(x.dtype()).contiguous();
          const Stream stream = current_stream(x.device());
          const Backend& kernels = backend(x.device());
          // The gradient sums: the parameters' gradients, and in training the input's too.
          Tensor sum_grad, sum_grad_xhat;
          if (in.needs(1) || in.needs(2) || (training && in.needs(0))) {
            sum_grad = empty({shape.channels}, mean.options());
            sum_grad_xhat = empty({shape.channels}, mean.options());
            kernels.batch_norm_backward_reduce(
                x.dtype(), g.data_ptr(), x.data_ptr(), mean.data_ptr(), invstd.data_ptr(),
                sum_grad.data_ptr(), sum_grad_xhat.data_ptr(), shape, stream);
          }
          if (in.needs(0)) {
            Tensor grad_in = empty(x.sizes(), x.options());
            kernels.batch_norm_backward_input(
                x.dtype(), g.data_ptr(), x.data_ptr(), mean.data_ptr(), invstd.data_ptr(),
                data_or_null(w), training ? sum_grad.data_ptr() : nullptr,
                training ? sum_grad_xhat.data_ptr() : nullptr, grad_in.data_ptr(), shape, stream);
            in[0] = grad_in;
          }
          if (in.needs(1)) in[1] = sum_grad_xhat.to(weight_type);
          if (in.needs(2)) in[2] = sum_grad.to(bias_type);
        });
  }
  return out;
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
  ACCEL_CHECK(input.is_floating_point(), "group_norm", "expected a floating-point input, got {}",
              to_string(input.dtype()));
  const Tensor w = weight.defined() ? per_channel(weight, input, "group_norm", "weight") : weight;
  const Tensor b = bias.defined() ? per_channel(bias, input, "group_norm", "bias") : bias;
  // Each group of each sample is one row of layer_norm's kernel; the affine parameters are per
  // channel, so they apply afterwards.
  int64_t group_size = input.size(1) / groups;
  for (int64_t d = 2; d < input.dim(); ++d) group_size *= input.size(d);
  const Tensor normalized =
      layer_norm(input.reshape({input.size(0), groups, group_size}), {group_size}, {}, {}, eps)
          .reshape(input.sizes());
  return affine(normalized, w, b, input.dtype());
}

Tensor instance_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                     const Tensor& weight, const Tensor& bias, bool use_input_stats,
                     double momentum, double eps) {
  constexpr const char* op = "instance_norm";
  check_batch_norm_args(input, running_mean, running_var, op);
  ACCEL_CHECK(use_input_stats || running_mean.defined(), op,
              "running_mean and running_var are required when use_input_stats is false");
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  if (weight.defined()) per_channel(weight, input, op, "weight");
  if (bias.defined()) per_channel(bias, input, op, "bias");
  const int64_t samples = input.size(0);
  const int64_t channels = input.size(1);
  ACCEL_CHECK(!use_input_stats || input.numel() > samples * channels, op,
              "expected more than 1 spatial element per channel when using the input's "
              "statistics, got input size {}",
              input.sizes());
  // Sample n's channel c is channel n * C + c of a batch of one: the per-channel tensors repeat
  // once per sample.
  const auto per_sample = [samples](const Tensor& t) {
    return t.defined() ? t.repeat({samples}) : t;
  };
  DimVector shape(input.sizes().begin(), input.sizes().end());
  shape[0] = 1;
  shape[1] = samples * channels;
  const Tensor sample_means = per_sample(running_mean);
  const Tensor sample_vars = per_sample(running_var);
  const Tensor out =
      batch_norm(input.reshape(as_ref(shape)), sample_means, sample_vars, per_sample(weight),
                 per_sample(bias), use_input_stats, momentum, eps);
  if (use_input_stats && running_mean.defined()) {
    NoGradGuard no_grad;
    Tensor mean_stat = running_mean, var_stat = running_var;
    mean_stat.copy_(sample_means.reshape({samples, channels}).mean({0}));
    var_stat.copy_(sample_vars.reshape({samples, channels}).mean({0}));
  }
  return out.reshape(input.sizes());
}

}  // namespace accel::nn::functional
