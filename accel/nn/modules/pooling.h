// Pooling layers: MaxPool2d, AvgPool2d and AdaptiveAvgPool2d, with PyTorch's options and
// defaults (stride = kernel_size, no padding), forwarding to the pooling ops.
#pragma once

#include <utility>
#include <vector>

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

}  // namespace accel::nn
