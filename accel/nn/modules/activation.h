// Activation layers: stateless modules around the activation functions, with PyTorch's options
// (LeakyReLU's slope, GELU's approximation, ELU's alpha, Softplus's beta and threshold, the
// softmax dim, ...), and PReLU with its learnable slopes.
#pragma once

#include <string>

#include "accel/core/activation.h"
#include "accel/core/ops.h"
#include "accel/nn/module.h"

namespace accel::nn {

// A module whose forward is Function(input), for the activations without options.
template <Tensor (*Function)(const Tensor&)>
class ElementwiseActivation : public Module {
 public:
  Tensor forward(const Tensor& input) override { return Function(input); }
};

class ReLUImpl : public ElementwiseActivation<&accel::relu> {};
ACCEL_MODULE(ReLU);
class ReLU6Impl : public ElementwiseActivation<&accel::relu6> {};
ACCEL_MODULE(ReLU6);
class SiLUImpl : public ElementwiseActivation<&accel::silu> {};
ACCEL_MODULE(SiLU);
class SigmoidImpl : public ElementwiseActivation<&accel::sigmoid> {};
ACCEL_MODULE(Sigmoid);
class TanhImpl : public ElementwiseActivation<&accel::tanh> {};
ACCEL_MODULE(Tanh);
class SELUImpl : public ElementwiseActivation<&accel::selu> {};
ACCEL_MODULE(SELU);
class HardsigmoidImpl : public ElementwiseActivation<&accel::hardsigmoid> {};
ACCEL_MODULE(Hardsigmoid);
class HardswishImpl : public ElementwiseActivation<&accel::hardswish> {};
ACCEL_MODULE(Hardswish);
class MishImpl : public ElementwiseActivation<&accel::mish> {};
ACCEL_MODULE(Mish);
class LogSigmoidImpl : public ElementwiseActivation<&accel::log_sigmoid> {};
ACCEL_MODULE(LogSigmoid);
class SoftsignImpl : public ElementwiseActivation<&accel::softsign> {};
ACCEL_MODULE(Softsign);
class TanhshrinkImpl : public ElementwiseActivation<&accel::tanhshrink> {};
ACCEL_MODULE(Tanhshrink);

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

class ELUImpl : public Module {
 public:
  explicit ELUImpl(double alpha = 1.0) : alpha(alpha) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double alpha;
};
ACCEL_MODULE(ELU);

class CELUImpl : public Module {
 public:
  explicit CELUImpl(double alpha = 1.0) : alpha(alpha) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double alpha;
};
ACCEL_MODULE(CELU);

class SoftplusImpl : public Module {
 public:
  explicit SoftplusImpl(double beta = 1.0, double threshold = 20.0)
      : beta(beta), threshold(threshold) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double beta, threshold;
};
ACCEL_MODULE(Softplus);

class HardtanhImpl : public Module {
 public:
  explicit HardtanhImpl(double min_val = -1.0, double max_val = 1.0)
      : min_val(min_val), max_val(max_val) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double min_val, max_val;
};
ACCEL_MODULE(Hardtanh);

class SoftshrinkImpl : public Module {
 public:
  explicit SoftshrinkImpl(double lambd = 0.5) : lambd(lambd) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double lambd;
};
ACCEL_MODULE(Softshrink);

class HardshrinkImpl : public Module {
 public:
  explicit HardshrinkImpl(double lambd = 0.5) : lambd(lambd) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double lambd;
};
ACCEL_MODULE(Hardshrink);

class ThresholdImpl : public Module {
 public:
  ThresholdImpl(double threshold, double value) : threshold(threshold), value(value) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double threshold, value;
};
ACCEL_MODULE(Threshold);

// Random negative slopes in [lower, upper] while training, their mean in evaluation.
class RReLUImpl : public Module {
 public:
  explicit RReLUImpl(double lower = 1.0 / 8, double upper = 1.0 / 3) : lower(lower), upper(upper) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  double lower, upper;
};
ACCEL_MODULE(RReLU);

// x where x > 0, else weight * x, with num_parameters learnable slopes (1, or the input's
// channel count), each starting at init.
class PReLUImpl : public Module {
 public:
  explicit PReLUImpl(int64_t num_parameters = 1, double init = 0.25);
  // Sets every slope back to init.
  void reset_parameters();
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t num_parameters;
  double init;
  Tensor weight;  // [num_parameters]
};
ACCEL_MODULE(PReLU);

// The first half of the input along dim gated by the sigmoid of the second.
class GLUImpl : public Module {
 public:
  explicit GLUImpl(int64_t dim = -1) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(GLU);

class SoftmaxImpl : public Module {
 public:
  explicit SoftmaxImpl(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(Softmax);

class SoftminImpl : public Module {
 public:
  explicit SoftminImpl(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(Softmin);

class LogSoftmaxImpl : public Module {
 public:
  explicit LogSoftmaxImpl(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& input) override;
  std::string extra_repr() const override;
  int64_t dim;
};
ACCEL_MODULE(LogSoftmax);

// Softmax over the channels of an [N, C, H, W] or [C, H, W] input, at every position.
class Softmax2dImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(Softmax2d);

}  // namespace accel::nn
