// The LPPool layers' forwards: F::lp_pool1d/2d/3d with the layer's options.
#include "accel/nn/modules/lp_pool.h"

#include <array>

namespace accel::nn {

template <size_t D>
Tensor LPPoolImpl<D>::forward(const Tensor& input) {
  constexpr std::array pool = {functional::lp_pool1d, functional::lp_pool2d, functional::lp_pool3d};
  return pool[D - 1](input, options.norm_type_, options.kernel_size_, options.stride_,
                     options.ceil_mode_);
}

template <size_t D>
std::string LPPoolImpl<D>::extra_repr() const {
  return fmt::format("norm_type={}, kernel_size={}, stride={}, ceil_mode={}", options.norm_type_,
                     options.kernel_size_,
                     options.stride_.empty() ? options.kernel_size_ : options.stride_,
                     options.ceil_mode_);
}

template class LPPoolImpl<1>;
template class LPPoolImpl<2>;
template class LPPoolImpl<3>;

}  // namespace accel::nn
