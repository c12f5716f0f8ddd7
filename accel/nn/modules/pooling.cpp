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

namespace {

functional::Pool1dWindows windows(const MaxPool1dOptions& o) {
  return {o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode()};
}

functional::Pool1dWindows windows(const AvgPool1dOptions& o) {
  return {o.kernel_size(), o.stride(), o.padding(), 1, o.ceil_mode()};
}

}  // namespace

Tensor MaxPool1dImpl::forward(const Tensor& input) { return forward_with_indices(input).first; }

std::pair<Tensor, Tensor> MaxPool1dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool1d_with_indices(input, windows(options));
}

Tensor AvgPool1dImpl::forward(const Tensor& input) {
  return functional::avg_pool1d(input, windows(options), options.count_include_pad());
}

Tensor AdaptiveAvgPool1dImpl::forward(const Tensor& input) {
  return functional::adaptive_avg_pool1d(input, output_size);
}

Tensor AdaptiveMaxPool1dImpl::forward(const Tensor& input) {
  return forward_with_indices(input).first;
}

std::pair<Tensor, Tensor> AdaptiveMaxPool1dImpl::forward_with_indices(const Tensor& input) {
  return functional::adaptive_max_pool1d_with_indices(input, output_size);
}

Tensor AdaptiveMaxPool2dImpl::forward(const Tensor& input) {
  return forward_with_indices(input).first;
}

std::pair<Tensor, Tensor> AdaptiveMaxPool2dImpl::forward_with_indices(const Tensor& input) {
  return functional::adaptive_max_pool2d_with_indices(input, output_size);
}

namespace {

// A size given as one value for both spatial dims, as the pair it stands for.
std::vector<int64_t> both_dims(const std::vector<int64_t>& sizes) {
  return sizes.size() == 1 ? std::vector<int64_t>{sizes[0], sizes[0]} : sizes;
}

}  // namespace

std::string MaxPool2dImpl::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={}",
                     both_dims(options.kernel_size_),
                     both_dims(options.stride_.empty() ? options.kernel_size_ : options.stride_),
                     both_dims(options.padding_), both_dims(options.dilation_), options.ceil_mode_);
}

std::string AvgPool2dImpl::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}, ceil_mode={}, count_include_pad={}",
                     both_dims(options.kernel_size_),
                     both_dims(options.stride_.empty() ? options.kernel_size_ : options.stride_),
                     both_dims(options.padding_), options.ceil_mode_, options.count_include_pad_);
}

std::string AdaptiveAvgPool2dImpl::extra_repr() const {
  return fmt::format("output_size={}", both_dims(output_size));
}

std::string MaxPool1dImpl::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={}",
                     options.kernel_size(), options.stride().value_or(options.kernel_size()),
                     options.padding(), options.dilation(), options.ceil_mode());
}

std::string AvgPool1dImpl::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}", options.kernel_size(),
                     options.stride().value_or(options.kernel_size()), options.padding());
}

std::string AdaptiveAvgPool1dImpl::extra_repr() const {
  return fmt::format("output_size={}", output_size);
}

std::string AdaptiveMaxPool1dImpl::extra_repr() const {
  return fmt::format("output_size={}", output_size);
}

std::string AdaptiveMaxPool2dImpl::extra_repr() const {
  return fmt::format("output_size={}", both_dims(output_size));
}

}  // namespace accel::nn
