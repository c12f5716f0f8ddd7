// nn::Linear: y = x W^T + b over the last dimension, with PyTorch's default initialization
// (kaiming_uniform_(a = sqrt(5)) on W, b uniform in +-1/sqrt(in_features)); nn::Bilinear:
// y = x1^T A x2 + b, A and b uniform in +-1/sqrt(in1_features).
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

struct BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : in1_features_(in1_features), in2_features_(in2_features), out_features_(out_features) {}
  BilinearOptions& bias(bool on) {
    bias_ = on;
    return *this;
  }
  int64_t in1_features_;
  int64_t in2_features_;
  int64_t out_features_;
  bool bias_ = true;
};

class BilinearImpl : public Module {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : BilinearImpl(BilinearOptions(in1_features, in2_features, out_features)) {}
  explicit BilinearImpl(const BilinearOptions& options);
  // Redraws weight and bias uniformly in +-1/sqrt(in1_features), as PyTorch.
  void reset_parameters();
  using Module::forward;
  Tensor forward(const Tensor& input1, const Tensor& input2);
  std::string extra_repr() const override;

  BilinearOptions options;
  Tensor weight;  // [out_features, in1_features, in2_features]
  Tensor bias;    // [out_features], undefined without bias
};
ACCEL_MODULE(Bilinear);

}  // namespace accel::nn
