// Normalization layers: BatchNorm1d/2d (affine weight and bias, running statistics as the
// buffers running_mean/running_var/num_batches_tracked, PyTorch's names), LayerNorm and
// GroupNorm, each a thin shell over the functional forms in nn/functional/normalization.h.
#pragma once

#include <optional>
#include <vector>

#include "accel/nn/functional/normalization.h"
#include "accel/nn/module.h"

namespace accel::nn {

struct BatchNormOptions {
  explicit BatchNormOptions(int64_t num_features) : num_features_(num_features) {}
  BatchNormOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  // nullopt: running statistics are the cumulative average over all batches seen.
  BatchNormOptions& momentum(std::optional<double> value) {
    momentum_ = value;
    return *this;
  }
  BatchNormOptions& affine(bool on) {
    affine_ = on;
    return *this;
  }
  BatchNormOptions& track_running_stats(bool on) {
    track_running_stats_ = on;
    return *this;
  }
  int64_t num_features_;
  double eps_ = 1e-5;
  std::optional<double> momentum_ = 0.1;
  bool affine_ = true;
  bool track_running_stats_ = true;
};

// The shared body of BatchNorm1d and BatchNorm2d, which differ only in the input ranks they
// accept.
class BatchNormImplBase : public Module {
 public:
  // Zeroes running_mean and num_batches_tracked and fills running_var with ones.
  void reset_running_stats();
  // reset_running_stats, then weight to ones and bias to zeros.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  BatchNormOptions options;
  Tensor weight;               // [num_features], undefined without affine
  Tensor bias;                 // [num_features], undefined without affine
  Tensor running_mean;         // [num_features], undefined without track_running_stats
  Tensor running_var;          // [num_features], undefined without track_running_stats
  Tensor num_batches_tracked;  // int64 scalar, undefined without track_running_stats
  // Set (by distributed::convert_sync_batchnorm), training uses the statistics of the union
  // of all processes' batches: SyncBatchNorm.
  functional::CrossProcessSum cross_process_sum;

 protected:
  BatchNormImplBase(const BatchNormOptions& options, std::vector<int64_t> ranks);

 private:
  std::vector<int64_t> ranks_;  // the input ranks forward accepts
};

// Input [N, C] or [N, C, L].
class BatchNorm1dImpl : public BatchNormImplBase {
 public:
  explicit BatchNorm1dImpl(int64_t num_features)
      : BatchNorm1dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm1dImpl(const BatchNormOptions& options) : BatchNormImplBase(options, {2, 3}) {}
};
ACCEL_MODULE(BatchNorm1d);

// Input [N, C, H, W].
class BatchNorm2dImpl : public BatchNormImplBase {
 public:
  explicit BatchNorm2dImpl(int64_t num_features)
      : BatchNorm2dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm2dImpl(const BatchNormOptions& options) : BatchNormImplBase(options, {4}) {}
};
ACCEL_MODULE(BatchNorm2d);

struct LayerNormOptions {
  explicit LayerNormOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  LayerNormOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  LayerNormOptions& elementwise_affine(bool on) {
    elementwise_affine_ = on;
    return *this;
  }
  std::vector<int64_t> normalized_shape_;
  double eps_ = 1e-5;
  bool elementwise_affine_ = true;
};

class LayerNormImpl : public Module {
 public:
  explicit LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(const LayerNormOptions& options);
  // Weight to ones, bias to zeros.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  LayerNormOptions options;
  Tensor weight;  // normalized_shape, undefined without elementwise_affine
  Tensor bias;    // normalized_shape, undefined without elementwise_affine
};
ACCEL_MODULE(LayerNorm);

struct GroupNormOptions {
  GroupNormOptions(int64_t num_groups, int64_t num_channels)
      : num_groups_(num_groups), num_channels_(num_channels) {}
  GroupNormOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  GroupNormOptions& affine(bool on) {
    affine_ = on;
    return *this;
  }
  int64_t num_groups_;
  int64_t num_channels_;
  double eps_ = 1e-5;
  bool affine_ = true;
};

class GroupNormImpl : public Module {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels)
      : GroupNormImpl(GroupNormOptions(num_groups, num_channels)) {}
  explicit GroupNormImpl(const GroupNormOptions& options);
  // Weight to ones, bias to zeros.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  GroupNormOptions options;
  Tensor weight;  // [num_channels], undefined without affine
  Tensor bias;    // [num_channels], undefined without affine
};
ACCEL_MODULE(GroupNorm);

}  // namespace accel::nn
