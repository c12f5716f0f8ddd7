// Pooling layers: MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvgPool1d/2d and AdaptiveMaxPool1d/2d,
// with PyTorch's options and defaults (stride = kernel_size, no padding), forwarding to the
// pooling functions.
#pragma once

#include <utility>
#include <vector>

#include "accel/core/arg.h"
#include "accel/nn/functional/pooling.h"
#include "accel/nn/module.h"

namespace accel::nn {

// Sizes are one value (both spatial dims) or two (h, w).
struct MaxPool2dOptions {
  MaxPool2dOptions(IntArrayRef kernel_size) : kernel_size_(kernel_size.vec()) {}
  MaxPool2dOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  MaxPool2dOptions& padding(IntArrayRef value) {
    padding_ = value.vec();
    return *this;
  }
  MaxPool2dOptions& dilation(IntArrayRef value) {
    dilation_ = value.vec();
    return *this;
  }
  MaxPool2dOptions& ceil_mode(bool on) {
    ceil_mode_ = on;
    return *this;
  }
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  std::vector<int64_t> padding_ = {0};
  std::vector<int64_t> dilation_ = {1};
  bool ceil_mode_ = false;
};

class MaxPool2dImpl : public Module {
 public:
  explicit MaxPool2dImpl(IntArrayRef kernel_size) : MaxPool2dImpl(MaxPool2dOptions(kernel_size)) {}
  explicit MaxPool2dImpl(const MaxPool2dOptions& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;
  // The output and the argmax indices (for a later max-unpooling or inspection).
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);

  std::string extra_repr() const override;

  MaxPool2dOptions options;
};
ACCEL_MODULE(MaxPool2d);

struct AvgPool2dOptions {
  AvgPool2dOptions(IntArrayRef kernel_size) : kernel_size_(kernel_size.vec()) {}
  AvgPool2dOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  AvgPool2dOptions& padding(IntArrayRef value) {
    padding_ = value.vec();
    return *this;
  }
  AvgPool2dOptions& ceil_mode(bool on) {
    ceil_mode_ = on;
    return *this;
  }
  AvgPool2dOptions& count_include_pad(bool on) {
    count_include_pad_ = on;
    return *this;
  }
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  std::vector<int64_t> padding_ = {0};
  bool ceil_mode_ = false;
  bool count_include_pad_ = true;
};

class AvgPool2dImpl : public Module {
 public:
  explicit AvgPool2dImpl(IntArrayRef kernel_size) : AvgPool2dImpl(AvgPool2dOptions(kernel_size)) {}
  explicit AvgPool2dImpl(const AvgPool2dOptions& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;

  std::string extra_repr() const override;

  AvgPool2dOptions options;
};
ACCEL_MODULE(AvgPool2d);

class AdaptiveAvgPool2dImpl : public Module {
 public:
  // The output's spatial size: one value (square) or two (h, w).
  explicit AdaptiveAvgPool2dImpl(IntArrayRef output_size) : output_size(output_size.vec()) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;

  std::vector<int64_t> output_size;
};
ACCEL_MODULE(AdaptiveAvgPool2d);

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

class AdaptiveMaxPool2dImpl : public Module {
 public:
  // The output's spatial size: one value (square) or two (h, w).
  explicit AdaptiveMaxPool2dImpl(IntArrayRef output_size) : output_size(output_size.vec()) {}
  Tensor forward(const Tensor& input) override;
  std::pair<Tensor, Tensor> forward_with_indices(const Tensor& input);
  std::string extra_repr() const override;
  std::vector<int64_t> output_size;
};
ACCEL_MODULE(AdaptiveMaxPool2d);

}  // namespace accel::nn
