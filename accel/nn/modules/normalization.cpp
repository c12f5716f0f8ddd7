// The normalization layers: parameter and buffer registration under PyTorch's names, PyTorch's
// initialization, the momentum / cumulative-average choice, and input checks naming the layer.
#include "accel/nn/modules/normalization.h"

#include <algorithm>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/nn/functional/normalization.h"

namespace accel::nn {

NormImplBase::NormImplBase(const NormOptions& options_, const char* name) : options(options_) {
  const int64_t c = options.num_features_;
  ACCEL_CHECK(c > 0, name, "num_features must be positive, got {}", c);
  if (options.affine_) {
    weight = register_parameter("weight", empty({c}));
    bias = register_parameter("bias", empty({c}));
  }
  if (options.track_running_stats_) {
    running_mean = register_buffer("running_mean", empty({c}));
    running_var = register_buffer("running_var", empty({c}));
    num_batches_tracked = register_buffer("num_batches_tracked", empty({}, kInt64));
  }
  reset_parameters();
}

void NormImplBase::reset_running_stats() {
  if (!options.track_running_stats_) return;
  NoGradGuard no_grad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

void NormImplBase::reset_parameters() {
  reset_running_stats();
  if (!options.affine_) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

BatchNormImplBase::BatchNormImplBase(const NormOptions& options_, std::vector<int64_t> ranks)
    : NormImplBase(options_, "BatchNorm"), ranks_(std::move(ranks)) {}

Tensor BatchNormImplBase::forward(const Tensor& input) {
  const bool rank_ok = std::ranges::find(ranks_, input.dim()) != ranks_.end();
  const char* expected = ranks_.size() > 1 ? "[N, C] or [N, C, L]"
                         : ranks_[0] == 4  ? "[N, C, H, W]"
                                           : "[N, C, D, H, W]";
  ACCEL_CHECK(rank_ok && input.size(1) == options.num_features_, name(),
              "expected input of shape {} with C = {} (num_features), got {}", expected,
              options.num_features_, input.sizes());
  double factor = options.momentum_.value_or(0.0);
  if (is_training() && options.track_running_stats_) {
    NoGradGuard no_grad;
    num_batches_tracked.add_(1);
    if (!options.momentum_) factor = 1.0 / num_batches_tracked.item<double>();
  }
  if (is_training() && cross_process_sum) {
    return functional::sync_batch_norm(input, running_mean, running_var, weight, bias, factor,
                                       options.eps_, cross_process_sum);
  }
  // Without running statistics, batch statistics are used in eval mode too (as PyTorch).
  const bool use_batch_stats = is_training() || !options.track_running_stats_;
  return functional::batch_norm(input, running_mean, running_var, weight, bias, use_batch_stats,
                                factor, options.eps_);
}

InstanceNormImplBase::InstanceNormImplBase(const NormOptions& options_, int64_t spatial_dims)
    : NormImplBase(options_, "InstanceNorm"), spatial_dims_(spatial_dims) {}

Tensor InstanceNormImplBase::forward(const Tensor& input) {
  const int64_t batched_rank = spatial_dims_ + 2;
  const bool batched = input.dim() == batched_rank;
  const bool ranked = batched || input.dim() == batched_rank - 1;
  // Without parameters or statistics num_features is unused, and PyTorch accepts any channels.
  const bool uses_channels = options.affine_ || options.track_running_stats_;
  const bool channels_ok =
      !uses_channels || (ranked && input.size(batched ? 1 : 0) == options.num_features_);
  const char* spatial = spatial_dims_ == 1 ? "L" : spatial_dims_ == 2 ? "H, W" : "D, H, W";
  ACCEL_CHECK(
      ranked && channels_ok, name(), "expected input of shape [N, C, {}] or [C, {}]{}, got {}",
      spatial, spatial,
      uses_channels ? fmt::format(" with C = {} (num_features)", options.num_features_) : "",
      input.sizes());
  const Tensor x = batched ? input : input.unsqueeze(0);
  const Tensor out = functional::instance_norm(x, running_mean, running_var, weight, bias,
                                               is_training() || !options.track_running_stats_,
                                               options.momentum_.value_or(0.0), options.eps_);
  return batched ? out : out.squeeze(0);
}

LayerNormImpl::LayerNormImpl(const LayerNormOptions& options_) : options(options_) {
  ACCEL_CHECK(!options.normalized_shape_.empty(), "LayerNorm",
              "normalized_shape must have at least one dim");
  if (options.elementwise_affine_) {
    weight = register_parameter("weight", accel::empty(options.normalized_shape_));
    bias = register_parameter("bias", accel::empty(options.normalized_shape_));
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (!options.elementwise_affine_) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  const IntArrayRef shape(options.normalized_shape_);
  const int64_t k = static_cast<int64_t>(shape.size());
  const bool matches = input.dim() >= k && IntArrayRef(input.sizes().data() + input.dim() - k,
                                                       static_cast<size_t>(k)) == shape;
  ACCEL_CHECK(matches, name(), "expected input of shape [*] + {} (normalized_shape), got {}", shape,
              input.sizes());
  return functional::layer_norm(input, shape, weight, bias, options.eps_);
}

GroupNormImpl::GroupNormImpl(const GroupNormOptions& options_) : options(options_) {
  ACCEL_CHECK(options.num_groups_ > 0 && options.num_channels_ % options.num_groups_ == 0,
              "GroupNorm", "num_channels {} must be divisible by num_groups {}",
              options.num_channels_, options.num_groups_);
  if (options.affine_) {
    weight = register_parameter("weight", empty({options.num_channels_}));
    bias = register_parameter("bias", empty({options.num_channels_}));
  }
  reset_parameters();
}

void GroupNormImpl::reset_parameters() {
  if (!options.affine_) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

Tensor GroupNormImpl::forward(const Tensor& input) {
  ACCEL_CHECK(input.dim() >= 2 && input.size(1) == options.num_channels_, name(),
              "expected input of shape [N, {}, *] (num_channels), got {}", options.num_channels_,
              input.sizes());
  return functional::group_norm(input, options.num_groups_, weight, bias, options.eps_);
}

RMSNormImpl::RMSNormImpl(const RMSNormOptions& options_) : options(options_) {
  ACCEL_CHECK(!options.normalized_shape_.empty(), "RMSNorm",
              "normalized_shape must have at least one dim");
  if (options.elementwise_affine_) {
    weight = register_parameter("weight", accel::empty(options.normalized_shape_));
  }
  reset_parameters();
}

void RMSNormImpl::reset_parameters() {
  if (!options.elementwise_affine_) return;
  NoGradGuard no_grad;
  weight.fill_(1);
}

Tensor RMSNormImpl::forward(const Tensor& input) {
  return functional::rms_norm(input, options.normalized_shape_, weight, options.eps_);
}

LocalResponseNormImpl::LocalResponseNormImpl(const LocalResponseNormOptions& options_)
    : options(options_) {
  ACCEL_CHECK(options.size_ > 0, "LocalResponseNorm", "size must be positive, got {}",
              options.size_);
}

Tensor LocalResponseNormImpl::forward(const Tensor& input) {
  return functional::local_response_norm(input, options.size_, options.alpha_, options.beta_,
                                         options.k_);
}

std::string NormImplBase::extra_repr() const {
  return fmt::format("{}, eps={}, momentum={}, affine={}, track_running_stats={}",
                     options.num_features_, options.eps_,
                     options.momentum_ ? fmt::format("{}", *options.momentum_) : "none",
                     options.affine_, options.track_running_stats_);
}

std::string LayerNormImpl::extra_repr() const {
  return fmt::format("{}, eps={}, elementwise_affine={}", options.normalized_shape_, options.eps_,
                     options.elementwise_affine_);
}

std::string GroupNormImpl::extra_repr() const {
  return fmt::format("{}, {}, eps={}, affine={}", options.num_groups_, options.num_channels_,
                     options.eps_, options.affine_);
}

std::string RMSNormImpl::extra_repr() const {
  return fmt::format("{}, eps={}, elementwise_affine={}", options.normalized_shape_,
                     options.eps_ ? fmt::format("{}", *options.eps_) : "none",
                     options.elementwise_affine_);
}

std::string LocalResponseNormImpl::extra_repr() const {
  return fmt::format("{}, alpha={}, beta={}, k={}", options.size_, options.alpha_, options.beta_,
                     options.k_);
}

}  // namespace accel::nn
