// MaxUnpool1d/2d/3d: the inverse of max pooling with PyTorch's options (stride = kernel_size
// unless given, padding 0), over F::max_unpool1d/2d/3d.
#pragma once

#include <vector>

#include "accel/nn/functional/pooling.h"
#include "accel/nn/module.h"

namespace accel::nn {

// Sizes are one value (every spatial dim) or D.
template <size_t D>
struct MaxUnpoolOptions {
  MaxUnpoolOptions(IntArrayRef kernel_size) : kernel_size_(kernel_size.vec()) {}
  MaxUnpoolOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  MaxUnpoolOptions& padding(IntArrayRef value) {
    padding_ = value.vec();
    return *this;
  }
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  std::vector<int64_t> padding_ = {0};
};
using MaxUnpool1dOptions = MaxUnpoolOptions<1>;
using MaxUnpool2dOptions = MaxUnpoolOptions<2>;
using MaxUnpool3dOptions = MaxUnpoolOptions<3>;

template <size_t D>
class MaxUnpoolImpl : public Module {
 public:
  explicit MaxUnpoolImpl(IntArrayRef kernel_size)
      : MaxUnpoolImpl(MaxUnpoolOptions<D>(kernel_size)) {}
  explicit MaxUnpoolImpl(const MaxUnpoolOptions<D>& options_) : options(options_) {}
  // Unpooling takes (input, indices); the one-argument Module::forward stays visible (and
  // throws).
  using Module::forward;
  // The pooled values and their indices (max pooling's forward_with_indices); output_size
  // picks among the sizes a strided pooling maps to the same one.
  Tensor forward(const Tensor& input, const Tensor& indices, IntArrayRef output_size = {});
  std::string extra_repr() const override;

  MaxUnpoolOptions<D> options;
};
class MaxUnpool1dImpl : public MaxUnpoolImpl<1> {
 public:
  using MaxUnpoolImpl<1>::MaxUnpoolImpl;
};
class MaxUnpool2dImpl : public MaxUnpoolImpl<2> {
 public:
  using MaxUnpoolImpl<2>::MaxUnpoolImpl;
};
class MaxUnpool3dImpl : public MaxUnpoolImpl<3> {
 public:
  using MaxUnpoolImpl<3>::MaxUnpoolImpl;
};
ACCEL_MODULE(MaxUnpool1d);
ACCEL_MODULE(MaxUnpool2d);
ACCEL_MODULE(MaxUnpool3d);

}  // namespace accel::nn
