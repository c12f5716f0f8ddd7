// LPPool1d/2d/3d: power-average pooling with PyTorch's options (stride = kernel_size unless
// given, ceil_mode off), over F::lp_pool1d/2d/3d.
#pragma once

#include <vector>

#include "accel/nn/functional/pooling.h"
#include "accel/nn/module.h"

namespace accel::nn {

// Sizes are one value (every spatial dim) or D.
template <size_t D>
struct LPPoolOptions {
  LPPoolOptions(double norm_type, IntArrayRef kernel_size)
      : norm_type_(norm_type), kernel_size_(kernel_size.vec()) {}
  LPPoolOptions& stride(IntArrayRef value) {
    stride_ = value.vec();
    return *this;
  }
  LPPoolOptions& ceil_mode(bool on) {
    ceil_mode_ = on;
    return *this;
  }
  double norm_type_;
  std::vector<int64_t> kernel_size_;
  std::vector<int64_t> stride_;  // empty: kernel_size
  bool ceil_mode_ = false;
};
using LPPool1dOptions = LPPoolOptions<1>;
using LPPool2dOptions = LPPoolOptions<2>;
using LPPool3dOptions = LPPoolOptions<3>;

template <size_t D>
class LPPoolImpl : public Module {
 public:
  LPPoolImpl(double norm_type, IntArrayRef kernel_size)
      : LPPoolImpl(LPPoolOptions<D>(norm_type, kernel_size)) {}
  explicit LPPoolImpl(const LPPoolOptions<D>& options_) : options(options_) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;

  LPPoolOptions<D> options;
};
class LPPool1dImpl : public LPPoolImpl<1> {
 public:
  using LPPoolImpl<1>::LPPoolImpl;
};
class LPPool2dImpl : public LPPoolImpl<2> {
 public:
  using LPPoolImpl<2>::LPPoolImpl;
};
class LPPool3dImpl : public LPPoolImpl<3> {
 public:
  using LPPoolImpl<3>::LPPoolImpl;
};
ACCEL_MODULE(LPPool1d);
ACCEL_MODULE(LPPool2d);
ACCEL_MODULE(LPPool3d);

}  // namespace accel::nn
