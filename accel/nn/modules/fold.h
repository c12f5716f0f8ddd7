// nn::Unfold and nn::Fold: functional::unfold / fold as layers with PyTorch's options (kernel
// size, dilation 1, padding 0, stride 1; Fold also the output size).
#pragma once

#include <fmt/format.h>

#include "accel/nn/functional/fold.h"
#include "accel/nn/module.h"

namespace accel::nn {

// The sliding blocks' options, shared by Unfold and Fold (setters return the derived options).
template <typename Derived>
struct SlidingBlockOptions {
  Derived& dilation(functional::ConvSizes value) {
    dilation_ = std::move(value);
    return static_cast<Derived&>(*this);
  }
  Derived& padding(functional::ConvSizes value) {
    padding_ = std::move(value);
    return static_cast<Derived&>(*this);
  }
  Derived& stride(functional::ConvSizes value) {
    stride_ = std::move(value);
    return static_cast<Derived&>(*this);
  }
  functional::ConvSizes kernel_size_;
  functional::ConvSizes dilation_ = 1;
  functional::ConvSizes padding_ = 0;
  functional::ConvSizes stride_ = 1;

 protected:
  explicit SlidingBlockOptions(functional::ConvSizes kernel_size)
      : kernel_size_(std::move(kernel_size)) {}
};

struct UnfoldOptions : SlidingBlockOptions<UnfoldOptions> {
  explicit UnfoldOptions(functional::ConvSizes kernel_size)
      : SlidingBlockOptions(std::move(kernel_size)) {}
};

// Fold's options: the blocks' plus the image size they are folded into.
struct FoldOptions : SlidingBlockOptions<FoldOptions> {
  FoldOptions(functional::ConvSizes output_size, functional::ConvSizes kernel_size)
      : SlidingBlockOptions(std::move(kernel_size)), output_size_(std::move(output_size)) {}
  functional::ConvSizes output_size_;
};

class UnfoldImpl : public Module {
 public:
  explicit UnfoldImpl(const UnfoldOptions& options) : options(options) {}
  Tensor forward(const Tensor& input) override {
    return functional::unfold(input, options.kernel_size_, options.dilation_, options.padding_,
                              options.stride_);
  }
  std::string extra_repr() const override {
    return fmt::format("kernel_size={}, dilation={}, padding={}, stride={}",
                       options.kernel_size_.values, options.dilation_.values,
                       options.padding_.values, options.stride_.values);
  }
  UnfoldOptions options;
};
ACCEL_MODULE(Unfold);

class FoldImpl : public Module {
 public:
  explicit FoldImpl(const FoldOptions& options) : options(options) {}
  Tensor forward(const Tensor& input) override {
    return functional::fold(input, options.output_size_, options.kernel_size_, options.dilation_,
                            options.padding_, options.stride_);
  }
  std::string extra_repr() const override {
    return fmt::format("output_size={}, kernel_size={}, dilation={}, padding={}, stride={}",
                       options.output_size_.values, options.kernel_size_.values,
                       options.dilation_.values, options.padding_.values, options.stride_.values);
  }
  FoldOptions options;
};
ACCEL_MODULE(Fold);

}  // namespace accel::nn
