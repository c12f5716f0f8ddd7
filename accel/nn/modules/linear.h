// nn::Linear: y = x W^T + b over the last dimension, with PyTorch's default initialization
// (kaiming_uniform_(a = sqrt(5)) on W, b uniform in +-1/sqrt(in_features)).
#pragma once

#include "accel/nn/module.h"

namespace accel::nn {

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  LinearOptions& bias(bool on) {
    bias_ = on;
    return *this;
  }
  int64_t in_features_;
  int64_t out_features_;
  bool bias_ = true;
};

class LinearImpl : public Module {
 public:
  LinearImpl(int64_t in_features, int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions& options);
  // Redraws weight and bias from PyTorch's default distributions.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;

  LinearOptions options;
  Tensor weight;  // [out_features, in_features]
  Tensor bias;    // [out_features], undefined without bias
};
ACCEL_MODULE(Linear);

}  // namespace accel::nn
