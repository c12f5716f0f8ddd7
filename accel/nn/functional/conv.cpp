// F::conv1d / F::conv2d / F::conv_transpose1d / F::conv_transpose2d over the core ops, choosing
// the overload for numeric or string padding.
#include "accel/nn/functional/conv.h"

#include "accel/core/conv.h"

namespace accel::nn::functional {

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
              const ConvSizes& stride, const ConvPadding& padding, const ConvSizes& dilation,
              int64_t groups) {
  if (!padding.mode.empty()) {
    return accel::conv2d(input, weight, bias, stride.values, padding.mode, dilation.values, groups);
  }
  return accel::conv2d(input, weight, bias, stride.values, padding.values, dilation.values, groups);
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
              const ConvSizes& stride, const ConvPadding& padding, const ConvSizes& dilation,
              int64_t groups) {
  if (!padding.mode.empty()) {
    return accel::conv1d(input, weight, bias, stride.values, padding.mode, dilation.values, groups);
  }
  return accel::conv1d(input, weight, bias, stride.values, padding.values, dilation.values, groups);
}

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const ConvSizes& stride, const ConvSizes& padding,
                        const ConvSizes& output_padding, int64_t groups,
                        const ConvSizes& dilation) {
  return accel::conv_transpose2d(input, weight, bias, stride.values, padding.values,
                                 output_padding.values, groups, dilation.values);
}

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const ConvSizes& stride, const ConvSizes& padding,
                        const ConvSizes& output_padding, int64_t groups,
                        const ConvSizes& dilation) {
  return accel::conv_transpose1d(input, weight, bias, stride.values, padding.values,
                                 output_padding.values, groups, dilation.values);
}

}  // namespace accel::nn::functional
