// nn::Conv1d/2d/3d and ConvTranspose1d/2d/3d: parameter shapes and default
// initialization from the options, and a forward that checks the input's channels (naming the
// layer), pads in the padding mode and calls the functional op.
#include "accel/nn/modules/conv.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "accel/core/factories.h"
#include "accel/nn/functional/pad.h"
#include "accel/nn/init.h"

namespace accel::nn {

namespace {

const char* layer_name(size_t spatial, bool transposed) {
  constexpr std::array<const char*, 3> kConv = {"Conv1d", "Conv2d", "Conv3d"};
  constexpr std::array<const char*, 3> kTransposed = {"ConvTranspose1d", "ConvTranspose2d",
                                                      "ConvTranspose3d"};
  return (transposed ? kTransposed : kConv)[spatial - 1];
}

// The spatial dims of an input, as the layer's error names them.
const char* spatial_dims(size_t spatial) {
  constexpr std::array<const char*, 3> kDims = {"L", "H, W", "D, H, W"};
  return kDims[spatial - 1];
}

const char* mode_name(ConvPaddingMode mode) {
  switch (mode) {
    case ConvPaddingMode::Zeros:
      return "zeros";
    case ConvPaddingMode::Reflect:
      return "reflect";
    case ConvPaddingMode::Replicate:
      return "replicate";
    case ConvPaddingMode::Circular:
      return "circular";
  }
  return "";
}

functional::PadMode pad_mode(ConvPaddingMode mode) {
  switch (mode) {
    case ConvPaddingMode::Reflect:
      return functional::PadMode::Reflect;
    case ConvPaddingMode::Replicate:
      return functional::PadMode::Replicate;
    case ConvPaddingMode::Circular:
      return functional::PadMode::Circular;
    case ConvPaddingMode::Zeros:
      break;
  }
  return functional::PadMode::Constant;
}

// The padding as functional::pad takes it ((before, after) pairs from the last dim): the
// numbers given, or "same"'s split of dilation * (kernel - 1) with the larger half after.
template <size_t D>
std::vector<int64_t> pad_amounts(const ConvOptions<D>& options) {
  std::vector<int64_t> amounts;
  for (size_t i = 0; i < D; ++i) {
    const size_t d = D - 1 - i;
    const auto at = [d](const std::vector<int64_t>& values) {
      return values[values.size() == 1 ? 0 : d];
    };
    if (options.padding_.mode == "valid") {
      amounts.insert(amounts.end(), {0, 0});
    } else if (options.padding_.mode == "same") {
      const int64_t total = at(options.dilation_.values) * (at(options.kernel_size_.values) - 1);
      amounts.insert(amounts.end(), {total / 2, total - total / 2});
    } else {
      amounts.insert(amounts.end(), {at(options.padding_.values), at(options.padding_.values)});
    }
  }
  return amounts;
}

}  // namespace

template <size_t D, bool Transposed>
ConvImpl<D, Transposed>::ConvImpl(const ConvOptions<D>& options_) : options(options_) {
  const char* name = layer_name(D, Transposed);
  const std::vector<int64_t>& kernel = options.kernel_size_.values;
  ACCEL_CHECK(kernel.size() == 1 || kernel.size() == D, name,
              "expected kernel_size to hold 1 or {} values, got {}", D, kernel);
  ACCEL_CHECK(options.in_channels_ > 0 && options.out_channels_ > 0 && options.groups_ > 0, name,
              "in_channels, out_channels and groups must be positive, got {}, {} and {}",
              options.in_channels_, options.out_channels_, options.groups_);
  ACCEL_CHECK(
      options.in_channels_ % options.groups_ == 0 && options.out_channels_ % options.groups_ == 0,
      name, "in_channels ({}) and out_channels ({}) must be divisible by groups ({})",
      options.in_channels_, options.out_channels_, options.groups_);
  ACCEL_CHECK(!Transposed || options.padding_mode_ == ConvPaddingMode::Zeros, name,
              "only padding_mode zeros is supported, got {}", mode_name(options.padding_mode_));
  std::vector<int64_t> shape{options.out_channels_, options.in_channels_ / options.groups_};
  if (Transposed) shape = {options.in_channels_, options.out_channels_ / options.groups_};
  for (size_t d = 0; d < D; ++d) shape.push_back(kernel[kernel.size() == 1 ? 0 : d]);
  weight = register_parameter("weight", accel::empty(shape));
  if (options.bias_) bias = register_parameter("bias", empty({options.out_channels_}));
  reset_parameters();
}

template <size_t D, bool Transposed>
void ConvImpl<D, Transposed>::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const double fan_in = static_cast<double>(init::calculate_fan_in_and_fan_out(weight).first);
    init::uniform_(bias, -1.0 / std::sqrt(fan_in), 1.0 / std::sqrt(fan_in));
  }
}

template <size_t D, bool Transposed>
Tensor ConvImpl<D, Transposed>::forward(const Tensor& input) {
  const int64_t batched_dim = static_cast<int64_t>(D) + 2;
  const bool ranked = input.dim() == batched_dim || input.dim() == batched_dim - 1;
  const int64_t channels_dim = input.dim() == batched_dim ? 1 : 0;
  ACCEL_CHECK(ranked && input.size(channels_dim) == options.in_channels_, layer_name(D, Transposed),
              "expected input of shape [N, {}, {}] or [{}, {}] (in_channels = {}), got {}",
              options.in_channels_, spatial_dims(D), options.in_channels_, spatial_dims(D),
              options.in_channels_, input.sizes());
  if constexpr (Transposed) {
    ACCEL_CHECK(options.padding_.mode.empty(), layer_name(D, Transposed),
                "only numeric padding is supported, got '{}'", options.padding_.mode);
    constexpr std::array conv_transposes = {
        functional::conv_transpose1d, functional::conv_transpose2d, functional::conv_transpose3d};
    const auto conv_transpose = conv_transposes[D - 1];
    return conv_transpose(input, weight, bias, options.stride_, options.padding_.values,
                          options.output_padding_, options.groups_, options.dilation_);
  }
  constexpr std::array convs = {functional::conv1d, functional::conv2d, functional::conv3d};
  const auto conv = convs[D - 1];
  if (options.padding_mode_ != ConvPaddingMode::Zeros) {
    const Tensor padded = functional::pad(
        input,
        functional::PadFuncOptions(pad_amounts(options)).mode(pad_mode(options.padding_mode_)));
    return conv(padded, weight, bias, options.stride_, 0, options.dilation_, options.groups_);
  }
  return conv(input, weight, bias, options.stride_, options.padding_, options.dilation_,
              options.groups_);
}

template <size_t D, bool Transposed>
std::string ConvImpl<D, Transposed>::extra_repr() const {
  // One value per spatial dim, as PyTorch shows a size given once.
  const auto per_dim = [](const std::vector<int64_t>& sizes) {
    return sizes.size() == 1 ? std::vector<int64_t>(D, sizes[0]) : sizes;
  };
  const auto all_equal = [](const std::vector<int64_t>& sizes, int64_t value) {
    return std::all_of(sizes.begin(), sizes.end(), [&](int64_t size) { return size == value; });
  };
  // PyTorch's choice: the channels, kernel size and stride always; the rest when not default.
  std::string text =
      fmt::format("{}, {}, kernel_size={}, stride={}", options.in_channels_, options.out_channels_,
                  per_dim(options.kernel_size_.values), per_dim(options.stride_.values));
  if (!options.padding_.mode.empty()) {
    text += fmt::format(", padding='{}'", options.padding_.mode);
  } else if (!all_equal(options.padding_.values, 0)) {
    text += fmt::format(", padding={}", per_dim(options.padding_.values));
  }
  if (!all_equal(options.dilation_.values, 1)) {
    text += fmt::format(", dilation={}", per_dim(options.dilation_.values));
  }
  if (Transposed && !all_equal(options.output_padding_.values, 0)) {
    text += fmt::format(", output_padding={}", per_dim(options.output_padding_.values));
  }
  if (options.groups_ != 1) text += fmt::format(", groups={}", options.groups_);
  if (!options.bias_) text += ", bias=false";
  if (options.padding_mode_ != ConvPaddingMode::Zeros) {
    text += fmt::format(", padding_mode='{}'", mode_name(options.padding_mode_));
  }
  return text;
}

template class ConvImpl<1, false>;
template class ConvImpl<2, false>;
template class ConvImpl<3, false>;
template class ConvImpl<1, true>;
template class ConvImpl<2, true>;
template class ConvImpl<3, true>;

}  // namespace accel::nn
