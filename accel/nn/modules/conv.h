// nn::Conv1d/2d/3d and nn::ConvTranspose1d/2d/3d: learnable convolutions with PyTorch's options
// and defaults (stride 1, padding 0 or "same"/"valid", padding mode zeros, dilation 1, groups 1,
// bias on) and default initialization (kaiming_uniform_(a = sqrt(5)) on the weight, bias uniform
// in +-1/sqrt(fan_in)).
#pragma once

#include "accel/nn/functional/conv.h"
#include "accel/nn/module.h"

namespace accel::nn {

// What the padding of a convolution layer holds: zeros, or the input reflected about its edge,
// its edge replicated, or the input wrapped around (torch.nn.Conv2d's padding_mode).
enum class ConvPaddingMode { Zeros, Reflect, Replicate, Circular };

// Options of a D-dimensional convolution; sizes take one value or D values.
template <size_t D>
struct ConvOptions {
  ConvOptions(int64_t in_channels, int64_t out_channels, functional::ConvSizes kernel_size)
      : in_channels_(in_channels),
        out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}
  ConvOptions& stride(functional::ConvSizes value) {
    stride_ = std::move(value);
    return *this;
  }
  ConvOptions& padding(functional::ConvPadding value) {
    padding_ = std::move(value);
    return *this;
  }
  // Transposed convolutions only: extra rows / columns on the bottom / right of the output.
  ConvOptions& output_padding(functional::ConvSizes value) {
    output_padding_ = std::move(value);
    return *this;
  }
  ConvOptions& dilation(functional::ConvSizes value) {
    dilation_ = std::move(value);
    return *this;
  }
  // Not Zeros: the input is padded by functional::pad in that mode, then convolved unpadded.
  // Convolutions only.
  ConvOptions& padding_mode(ConvPaddingMode value) {
    padding_mode_ = value;
    return *this;
  }
  ConvOptions& groups(int64_t value) {
    groups_ = value;
    return *this;
  }
  ConvOptions& bias(bool on) {
    bias_ = on;
    return *this;
  }
  int64_t in_channels_;
  int64_t out_channels_;
  functional::ConvSizes kernel_size_;
  functional::ConvSizes stride_ = 1;
  functional::ConvPadding padding_ = 0;
  functional::ConvSizes output_padding_ = 0;
  ConvPaddingMode padding_mode_ = ConvPaddingMode::Zeros;
  functional::ConvSizes dilation_ = 1;
  int64_t groups_ = 1;
  bool bias_ = true;
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;
using ConvTranspose1dOptions = ConvOptions<1>;
using ConvTranspose2dOptions = ConvOptions<2>;
using ConvTranspose3dOptions = ConvOptions<3>;

// The layer shared by the convolutions; D is the number of spatial dims.
template <size_t D, bool Transposed>
class ConvImpl : public Module {
 public:
  explicit ConvImpl(const ConvOptions<D>& options);
  ConvImpl(int64_t in_channels, int64_t out_channels, functional::ConvSizes kernel_size)
      : ConvImpl(ConvOptions<D>(in_channels, out_channels, std::move(kernel_size))) {}
  // Redraws weight and bias from PyTorch's default distributions.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;

  ConvOptions<D> options;
  // [out_channels, in_channels / groups, kernel sizes...]; transposed: in and out swapped.
  Tensor weight;
  Tensor bias;  // [out_channels], undefined without bias
};

class Conv1dImpl : public ConvImpl<1, false> {
 public:
  using ConvImpl<1, false>::ConvImpl;
};
class Conv2dImpl : public ConvImpl<2, false> {
 public:
  using ConvImpl<2, false>::ConvImpl;
};
class Conv3dImpl : public ConvImpl<3, false> {
 public:
  using ConvImpl<3, false>::ConvImpl;
};
class ConvTranspose1dImpl : public ConvImpl<1, true> {
 public:
  using ConvImpl<1, true>::ConvImpl;
};
class ConvTranspose2dImpl : public ConvImpl<2, true> {
 public:
  using ConvImpl<2, true>::ConvImpl;
};
class ConvTranspose3dImpl : public ConvImpl<3, true> {
 public:
  using ConvImpl<3, true>::ConvImpl;
};
ACCEL_MODULE(Conv1d);
ACCEL_MODULE(Conv2d);
ACCEL_MODULE(Conv3d);
ACCEL_MODULE(ConvTranspose1d);
ACCEL_MODULE(ConvTranspose2d);
ACCEL_MODULE(ConvTranspose3d);

}  // namespace accel::nn
