// The MaxUnpool layers' forwards: F::max_unpool1d/2d/3d with the layer's options.
#include "accel/nn/modules/max_unpool.h"

#include <array>

namespace accel::nn {

template <size_t D>
Tensor MaxUnpoolImpl<D>::forward(const Tensor& input, const Tensor& indices,
                                 IntArrayRef output_size) {
  constexpr std::array unpool = {functional::max_unpool1d, functional::max_unpool2d,
                                 functional::max_unpool3d};
  return unpool[D - 1](input, indices, options.kernel_size_, options.stride_, options.padding_,
                       output_size);
}

template <size_t D>
std::string MaxUnpoolImpl<D>::extra_repr() const {
  const auto per_dim = [](const std::vector<int64_t>& sizes) {
    return sizes.size() == 1 ? std::vector<int64_t>(D, sizes[0]) : sizes;
  };
  return fmt::format("kernel_size={}, stride={}, padding={}", per_dim(options.kernel_size_),
                     per_dim(options.stride_.empty() ? options.kernel_size_ : options.stride_),
                     per_dim(options.padding_));
}

template class MaxUnpoolImpl<1>;
template class MaxUnpoolImpl<2>;
template class MaxUnpoolImpl<3>;

}  // namespace accel::nn
