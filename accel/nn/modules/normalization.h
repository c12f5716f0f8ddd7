// Normalization layers: BatchNorm1d/2d/3d and InstanceNorm1d/2d/3d (affine weight and bias,
// running statistics as the buffers running_mean/running_var/num_batches_tracked, PyTorch's
// names), LayerNorm, GroupNorm, RMSNorm and LocalResponseNorm, each a thin shell over the
// functional forms in nn/functional/normalization.h.
#pragma once

#include <optional>
#include <vector>

#include "accel/nn/functional/normalization.h"
#include "accel/nn/module.h"

namespace accel::nn {

// The options of BatchNorm and InstanceNorm, which differ only in their defaults.
struct NormOptions {
  NormOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  // BatchNorm: nullopt makes the running statistics the cumulative average over all batches seen.
  // InstanceNorm: nullopt leaves them unchanged (PyTorch passes momentum 0).
  NormOptions& momentum(std::optional<double> value) {
    momentum_ = value;
    return *this;
  }
  NormOptions& affine(bool on) {
    affine_ = on;
    return *this;
  }
  NormOptions& track_running_stats(bool on) {
    track_running_stats_ = on;
    return *this;
  }
  int64_t num_features_;
  double eps_ = 1e-5;
  std::optional<double> momentum_ = 0.1;
  bool affine_;
  bool track_running_stats_;

 protected:
  NormOptions(int64_t num_features, bool affine, bool track_running_stats)
      : num_features_(num_features), affine_(affine), track_running_stats_(track_running_stats) {}
};

// Affine parameters and running statistics on by default.
struct BatchNormOptions : NormOptions {
  explicit BatchNormOptions(int64_t num_features) : NormOptions(num_features, true, true) {}
};

// Neither affine parameters nor running statistics by default.
struct InstanceNormOptions : NormOptions {
  explicit InstanceNormOptions(int64_t num_features) : NormOptions(num_features, false, false) {}
};

// What BatchNorm and InstanceNorm hold: the options, the affine parameters and the running
// statistics as the buffers running_mean/running_var/num_batches_tracked (PyTorch's _NormBase).
class NormImplBase : public Module {
 public:
  // Zeroes running_mean and num_batches_tracked and fills running_var with ones.
  void reset_running_stats();
  // reset_running_stats, then weight to ones and bias to zeros.
  void reset_parameters();
  std::string extra_repr() const override;

  NormOptions options;
  Tensor weight;               // [num_features], undefined without affine
  Tensor bias;                 // [num_features], undefined without affine
  Tensor running_mean;         // [num_features], undefined without track_running_stats
  Tensor running_var;          // [num_features], undefined without track_running_stats
  Tensor num_batches_tracked;  // int64 scalar, undefined without track_running_stats

 protected:
  // `name`: the layer family, for errors in the constructor.
  NormImplBase(const NormOptions& options, const char* name);
};

// The shared body of BatchNorm1d, 2d and 3d, which differ only in the input ranks they accept.
class BatchNormImplBase : public NormImplBase {
 public:
  Tensor forward(const Tensor& input) override;

  // Set (by distributed::convert_sync_batchnorm), training uses the statistics of the union
  // of all processes' batches: SyncBatchNorm.
  functional::CrossProcessSum cross_process_sum;

 protected:
  BatchNormImplBase(const NormOptions& options, std::vector<int64_t> ranks);

 private:
  std::vector<int64_t> ranks_;  // the input ranks forward accepts
};

// Input [N, C] or [N, C, L].
class BatchNorm1dImpl : public BatchNormImplBase {
 public:
  explicit BatchNorm1dImpl(int64_t num_features)
      : BatchNorm1dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm1dImpl(const NormOptions& options) : BatchNormImplBase(options, {2, 3}) {}
};
ACCEL_MODULE(BatchNorm1d);

// Input [N, C, H, W].
class BatchNorm2dImpl : public BatchNormImplBase {
 public:
  explicit BatchNorm2dImpl(int64_t num_features)
      : BatchNorm2dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm2dImpl(const NormOptions& options) : BatchNormImplBase(options, {4}) {}
};
ACCEL_MODULE(BatchNorm2d);

// Input [N, C, D, H, W].
class BatchNorm3dImpl : public BatchNormImplBase {
 public:
  explicit BatchNorm3dImpl(int64_t num_features)
      : BatchNorm3dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm3dImpl(const NormOptions& options) : BatchNormImplBase(options, {5}) {}
};
ACCEL_MODULE(BatchNorm3d);

// The shared body of InstanceNorm1d, 2d and 3d: each sample's channels normalized over their
// spatial dims, batched ([N, C, spatial...]) or not ([C, spatial...]). In training, or without
// running statistics, by the input's statistics; otherwise by the running ones.
class InstanceNormImplBase : public NormImplBase {
 public:
  Tensor forward(const Tensor& input) override;

 protected:
  InstanceNormImplBase(const NormOptions& options, int64_t spatial_dims);

 private:
  int64_t spatial_dims_;
};

class InstanceNorm1dImpl : public InstanceNormImplBase {
 public:
  explicit InstanceNorm1dImpl(int64_t num_features)
      : InstanceNorm1dImpl(InstanceNormOptions(num_features)) {}
  explicit InstanceNorm1dImpl(const NormOptions& options) : InstanceNormImplBase(options, 1) {}
};
ACCEL_MODULE(InstanceNorm1d);

class InstanceNorm2dImpl : public InstanceNormImplBase {
 public:
  explicit InstanceNorm2dImpl(int64_t num_features)
      : InstanceNorm2dImpl(InstanceNormOptions(num_features)) {}
  explicit InstanceNorm2dImpl(const NormOptions& options) : InstanceNormImplBase(options, 2) {}
};
ACCEL_MODULE(InstanceNorm2d);

class InstanceNorm3dImpl : public InstanceNormImplBase {
 public:
  explicit InstanceNorm3dImpl(int64_t num_features)
      : InstanceNorm3dImpl(InstanceNormOptions(num_features)) {}
  explicit InstanceNorm3dImpl(const NormOptions& options) : InstanceNormImplBase(options, 3) {}
};
ACCEL_MODULE(InstanceNorm3d);

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

struct RMSNormOptions {
  explicit RMSNormOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  // nullopt: the machine epsilon of the computing type (see functional::rms_norm).
  RMSNormOptions& eps(std::optional<double> value) {
    eps_ = value;
    return *this;
  }
  RMSNormOptions& elementwise_affine(bool on) {
    elementwise_affine_ = on;
    return *this;
  }
  std::vector<int64_t> normalized_shape_;
  std::optional<double> eps_;
  bool elementwise_affine_ = true;
};

// Root-mean-square normalization over the trailing normalized_shape dims, scaled by a weight.
class RMSNormImpl : public Module {
 public:
  explicit RMSNormImpl(std::vector<int64_t> normalized_shape)
      : RMSNormImpl(RMSNormOptions(std::move(normalized_shape))) {}
  explicit RMSNormImpl(const RMSNormOptions& options);
  // Weight to ones.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  RMSNormOptions options;
  Tensor weight;  // normalized_shape, undefined without elementwise_affine
};
ACCEL_MODULE(RMSNorm);

struct LocalResponseNormOptions {
  explicit LocalResponseNormOptions(int64_t size) : size_(size) {}
  LocalResponseNormOptions& alpha(double value) {
    alpha_ = value;
    return *this;
  }
  LocalResponseNormOptions& beta(double value) {
    beta_ = value;
    return *this;
  }
  LocalResponseNormOptions& k(double value) {
    k_ = value;
    return *this;
  }
  int64_t size_;
  double alpha_ = 1e-4;
  double beta_ = 0.75;
  double k_ = 1.0;
};

// Normalization across neighbouring channels (functional::local_response_norm); no parameters.
class LocalResponseNormImpl : public Module {
 public:
  explicit LocalResponseNormImpl(int64_t size)
      : LocalResponseNormImpl(LocalResponseNormOptions(size)) {}
  explicit LocalResponseNormImpl(const LocalResponseNormOptions& options);
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  LocalResponseNormOptions options;
};
ACCEL_MODULE(LocalResponseNorm);

}  // namespace accel::nn
