// The pooling layers' forwards: the pooling ops with the layer's options.
#include "accel/nn/modules/pooling.h"

#include "accel/nn/functional/pooling.h"

namespace accel::nn {

Tensor MaxPool2dImpl::forward(const Tensor& input) { return forward_with_indices(input).first; }

std::pair<Tensor, Tensor> MaxPool2dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool2d_with_indices(input, options.kernel_size_, options.stride_,
                                             options.padding_, options.dilation_,
                                             options.ceil_mode_);
}

Tensor AvgPool2dImpl::forward(const Tensor& input) {
  return functional::avg_pool2d(input, options.kernel_size_, options.stride_, options.padding_,
                                options.ceil_mode_, options.count_include_pad_);
}

Tensor AdaptiveAvgPool2dImpl::forward(const Tensor& input) {
  return functional::adaptive_avg_pool2d(input, output_size);
}

}  // namespace accel::nn
