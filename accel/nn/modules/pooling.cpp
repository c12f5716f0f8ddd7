// The pooling layers' forwards: the pooling ops with the layer's options.
#include "accel/nn/modules/pooling.h"

#include "accel/nn/functional/pooling.h"

namespace accel::nn {

template <size_t D>
Tensor MaxPoolImpl<D>::forward(const Tensor& input) {
  return forward_with_indices(input).first;
}

template <size_t D>
std::pair<Tensor, Tensor> MaxPoolImpl<D>::forward_with_indices(const Tensor& input) {
  const auto pool =
      D == 2 ? functional::max_pool2d_with_indices : functional::max_pool3d_with_indices;
  return pool(input, options.kernel_size_, options.stride_, options.padding_, options.dilation_,
              options.ceil_mode_);
}

template <size_t D>
Tensor AvgPoolImpl<D>::forward(const Tensor& input) {
  const auto pool = D == 2 ? functional::avg_pool2d : functional::avg_pool3d;
  return pool(input, options.kernel_size_, options.stride_, options.padding_, options.ceil_mode_,
              options.count_include_pad_);
}

template <size_t D>
Tensor AdaptiveAvgPoolImpl<D>::forward(const Tensor& input) {
  const auto pool = D == 2 ? functional::adaptive_avg_pool2d : functional::adaptive_avg_pool3d;
  return pool(input, output_size);
}

template <size_t D>
Tensor AdaptiveMaxPoolImpl<D>::forward(const Tensor& input) {
  return forward_with_indices(input).first;
}

template <size_t D>
std::pair<Tensor, Tensor> AdaptiveMaxPoolImpl<D>::forward_with_indices(const Tensor& input) {
  const auto pool = D == 2 ? functional::adaptive_max_pool2d_with_indices
                           : functional::adaptive_max_pool3d_with_indices;
  return pool(input, output_size);
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

namespace {

// A size given as one value for every spatial dim, as the D values it stands for.
template <size_t D>
std::vector<int64_t> per_dim(const std::vector<int64_t>& sizes) {
  return sizes.size() == 1 ? std::vector<int64_t>(D, sizes[0]) : sizes;
}

}  // namespace

template <size_t D>
std::string MaxPoolImpl<D>::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={}",
                     per_dim<D>(options.kernel_size_),
                     per_dim<D>(options.stride_.empty() ? options.kernel_size_ : options.stride_),
                     per_dim<D>(options.padding_), per_dim<D>(options.dilation_),
                     options.ceil_mode_);
}

template <size_t D>
std::string AvgPoolImpl<D>::extra_repr() const {
  return fmt::format("kernel_size={}, stride={}, padding={}, ceil_mode={}, count_include_pad={}",
                     per_dim<D>(options.kernel_size_),
                     per_dim<D>(options.stride_.empty() ? options.kernel_size_ : options.stride_),
                     per_dim<D>(options.padding_), options.ceil_mode_, options.count_include_pad_);
}

template <size_t D>
std::string AdaptiveAvgPoolImpl<D>::extra_repr() const {
  return fmt::format("output_size={}", per_dim<D>(output_size));
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

template <size_t D>
std::string AdaptiveMaxPoolImpl<D>::extra_repr() const {
  return fmt::format("output_size={}", per_dim<D>(output_size));
}

template class MaxPoolImpl<2>;
template class MaxPoolImpl<3>;
template class AvgPoolImpl<2>;
template class AvgPoolImpl<3>;
template class AdaptiveAvgPoolImpl<2>;
template class AdaptiveAvgPoolImpl<3>;
template class AdaptiveMaxPoolImpl<2>;
template class AdaptiveMaxPoolImpl<3>;

}  // namespace accel::nn
