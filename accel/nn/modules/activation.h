// Activation layers: stateless modules around the element-wise and softmax ops, with
// PyTorch's options (LeakyReLU's slope, GELU's approximation, the softmax dim).
#pragma once

#include <string>

#include "accel/nn/module.h"

namespace accel::nn {

class ReLUImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(ReLU);

class LeakyReLUImpl : public Module {
 public:
  explicit LeakyReLUImpl(double negative_slope = 0.01) : negative_slope(negative_slope) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double negative_slope;
};
ACCEL_MODULE(LeakyReLU);

class GELUImpl : public Module {
 public:
  explicit GELUImpl(std::string approximate = "none");  // "none" | "tanh"
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  std::string approximate;
};
ACCEL_MODULE(GELU);

class SiLUImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(SiLU);

class SigmoidImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(Sigmoid);

class TanhImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(Tanh);

class SoftmaxImpl : public Module {
 public:
  explicit SoftmaxImpl(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(Softmax);

class LogSoftmaxImpl : public Module {
 public:
  explicit LogSoftmaxImpl(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(LogSoftmax);

}  // namespace accel::nn
