// Pooling layers: MaxPool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d and
// AdaptiveMaxPool1d/2d/3d, with PyTorch's options and defaults (stride = kernel_size, no
// padding), forwarding to the pooling functions.
#pragma once

#include <utility>
#include <vector>

#include "accel/core/arg.h"
#include "accel/nn/functional/pooling.h"
#include "accel/nn/module.h"

namespace accel::nn {

// Options and layers of D-dimensional pooling (D = 2 or 3): sizes are one value (every spatial
// dim) or D values.
template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(IntArrayRef kernel_size) : kernel_size_(kernel_size.vec()) {}
  MaxPoolOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  MaxPoolOptions& padding(IntArrayRef value) {
    padding_ = value.vec();
    return *this;
  }
  MaxPoolOptions& dilation(IntArrayRef value) {
    dilation_ = value.vec();
    return *this;
  }
  MaxPoolOptions& ceil_mode(bool on) {
    ceil_mode_ = on;
    return *this;
  }
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  std::vector<int64_t> padding_ = {0};
  std::vector<int64_t> dilation_ = {1};
  bool ceil_mode_ = false;
};
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;

template <size_t D>
class MaxPoolImpl : public Module {
 public:
  explicit MaxPoolImpl(IntArrayRef kernel_size) : MaxPoolImpl(MaxPoolOptions<D>(kernel_size)) {}
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;
  // The output and the argmax indices (for a later max-unpooling or inspection).
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);

  std::string extra_repr() const override;

  MaxPoolOptions<D> options;
};
class MaxPool2dImpl : public MaxPoolImpl<2> {
 public:
  using MaxPoolImpl<2>::MaxPoolImpl;
};
class MaxPool3dImpl : public MaxPoolImpl<3> {
 public:
  using MaxPoolImpl<3>::MaxPoolImpl;
};
ACCEL_MODULE(MaxPool2d);
ACCEL_MODULE(MaxPool3d);

template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(IntArrayRef kernel_size) : kernel_size_(kernel_size.vec()) {}
  AvgPoolOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  AvgPoolOptions& padding(IntArrayRef value) {
    padding_ = value.vec();
    return *this;
  }
  AvgPoolOptions& ceil_mode(bool on) {
    ceil_mode_ = on;
    return *this;
  }
  AvgPoolOptions& count_include_pad(bool on) {
    count_include_pad_ = on;
    return *this;
  }
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  std::vector<int64_t> padding_ = {0};
  bool ceil_mode_ = false;
  bool count_include_pad_ = true;
};
using AvgPool2dOptions = AvgPoolOptions<2>;
using AvgPool3dOptions = AvgPoolOptions<3>;

template <size_t D>
class AvgPoolImpl : public Module {
 public:
  explicit AvgPoolImpl(IntArrayRef kernel_size) : AvgPoolImpl(AvgPoolOptions<D>(kernel_size)) {}
  explicit AvgPoolImpl(const AvgPoolOptions<D>& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  AvgPoolOptions<D> options;
};
class AvgPool2dImpl : public AvgPoolImpl<2> {
 public:
  using AvgPoolImpl<2>::AvgPoolImpl;
};
class AvgPool3dImpl : public AvgPoolImpl<3> {
 public:
  using AvgPoolImpl<3>::AvgPoolImpl;
};
ACCEL_MODULE(AvgPool2d);
ACCEL_MODULE(AvgPool3d);

template <size_t D>
class AdaptiveAvgPoolImpl : public Module {
 public:
  // The output's spatial size: one value (every dim) or D.
  explicit AdaptiveAvgPoolImpl(IntArrayRef output_size) : output_size(output_size.vec()) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;

  std::vector<int64_t> output_size;
};
class AdaptiveAvgPool2dImpl : public AdaptiveAvgPoolImpl<2> {
 public:
  using AdaptiveAvgPoolImpl<2>::AdaptiveAvgPoolImpl;
};
class AdaptiveAvgPool3dImpl : public AdaptiveAvgPoolImpl<3> {
 public:
  using AdaptiveAvgPoolImpl<3>::AdaptiveAvgPoolImpl;
};
ACCEL_MODULE(AdaptiveAvgPool2d);
ACCEL_MODULE(AdaptiveAvgPool3d);

struct MaxPool1dOptions {
  MaxPool1dOptions(int64_t kernel_size) : kernel_size_(kernel_size) {}
  ACCEL_ARG(int64_t, kernel_size);
  ACCEL_ARG(std::optional<int64_t>, stride);  // none: kernel_size
  ACCEL_ARG(int64_t, padding) = 0;
  ACCEL_ARG(int64_t, dilation) = 1;
  ACCEL_ARG(bool, ceil_mode) = false;
};

class MaxPool1dImpl : public Module {
 public:
  explicit MaxPool1dImpl(const MaxPool1dOptions& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;
  // The output and the argmax indices along L.
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);
  std::string extra_repr() const override;
  MaxPool1dOptions options;
};
ACCEL_MODULE(MaxPool1d);

struct AvgPool1dOptions {
  AvgPool1dOptions(int64_t kernel_size) : kernel_size_(kernel_size) {}
  ACCEL_ARG(int64_t, kernel_size);
  ACCEL_ARG(std::optional<int64_t>, stride);  // none: kernel_size
  ACCEL_ARG(int64_t, padding) = 0;
  ACCEL_ARG(bool, ceil_mode) = false;
  ACCEL_ARG(bool, count_include_pad) = true;
};

class AvgPool1dImpl : public Module {
 public:
  explicit AvgPool1dImpl(const AvgPool1dOptions& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  AvgPool1dOptions options;
};
ACCEL_MODULE(AvgPool1d);

class AdaptiveAvgPool1dImpl : public Module {
 public:
  explicit AdaptiveAvgPool1dImpl(int64_t output_size) : output_size(output_size) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t output_size;
};
ACCEL_MODULE(AdaptiveAvgPool1d);

class AdaptiveMaxPool1dImpl : public Module {
 public:
  explicit AdaptiveMaxPool1dImpl(int64_t output_size) : output_size(output_size) {}
  Tensor forward(const Tensor& input) override;
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);
  std::string extra_repr() const override;
  int64_t output_size;
};
ACCEL_MODULE(AdaptiveMaxPool1d);

template <size_t D>
class AdaptiveMaxPoolImpl : public Module {
 public:
  // The output's spatial size: one value (every dim) or D.
  explicit AdaptiveMaxPoolImpl(IntArrayRef output_size) : output_size(output_size.vec()) {}
  Tensor forward(const Tensor& input) override;
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);
  std::string extra_repr() const override;
  std::vector<int64_t> output_size;
};
class AdaptiveMaxPool2dImpl : public AdaptiveMaxPoolImpl<2> {
 public:
  using AdaptiveMaxPoolImpl<2>::AdaptiveMaxPoolImpl;
};
class AdaptiveMaxPool3dImpl : public AdaptiveMaxPoolImpl<3> {
 public:
  using AdaptiveMaxPoolImpl<3>::AdaptiveMaxPoolImpl;
};
ACCEL_MODULE(AdaptiveMaxPool2d);
ACCEL_MODULE(AdaptiveMaxPool3d);

}  // namespace accel::nn
