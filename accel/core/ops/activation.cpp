// The activation functions of core/activation.h: each checks its parameters, runs one fused
// kernel family (kernels/common/activation_math.h holds the formulas) and records a backward
// that reads the saved input.
#include "accel/core/activation.h"

#include "accel/core/ops/op_support.h"
#include "accel/kernels/common/activation_math.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;
using math::Activation;
using math::ActivationKind;

namespace {

// torch.nn.SELU's constants (Klambauer et al., 2017).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

Tensor activation_backward(const Activation& f, const Tensor& grad, const Tensor& x,
                           const char* op) {
  const Tensor g = grad.to(x.dtype());
  Tensor grad_in = empty(x.sizes(), x.options());
  backend(x.device())
      .activation_backward(f, x.dtype(), make_loop<3>(grad_in, {&g, &x}, op),
                           current_stream(x.device()));
  return grad_in;
}

// f(input) through the kernels, recording its backward; `op` names the function in errors
// and in the autograd graph (a string literal).
Tensor activation(const Activation& f, const Tensor& input, const char* op) {
  ACCEL_CHECK(is_floating_point(input.dtype()), op, "expected a floating point tensor, got {}",
              input.dtype());
  Tensor out = empty(input.sizes(), input.options());
  backend(out.device())
      .activation(f, input.dtype(), make_loop<2>(out, {&input}, op), current_stream(out.device()));
  if (autograd::should_record(input)) {
    autograd::record(op, {input}, out,
                     [f, op, saved = SavedTensor(input)](const Tensor& grad, GradInputs& in) {
                       in[0] = activation_backward(f, grad, saved.get(), op);
                     });
  }
  return out;
}

}  // namespace

Tensor elu(const Tensor& input, double alpha) {
  return activation({ActivationKind::Elu, {alpha, 1.0, 1.0}}, input, "elu");
}

Tensor selu(const Tensor& input) {
  return activation({ActivationKind::Elu, {kSeluAlpha, kSeluScale, 1.0}}, input, "selu");
}

Tensor celu(const Tensor& input, double alpha) {
  ACCEL_CHECK(alpha != 0, "celu", "alpha must not be 0 (the input is divided by it)");
  return activation({ActivationKind::Elu, {alpha, 1.0, 1.0 / alpha}}, input, "celu");
}

Tensor softplus(const Tensor& input, double beta, double threshold) {
  ACCEL_CHECK(beta != 0, "softplus", "beta must not be 0 (the result is divided by it)");
  return activation({ActivationKind::Softplus, {beta, threshold}}, input, "softplus");
}

Tensor hardtanh(const Tensor& input, double min_val, double max_val) {
  ACCEL_CHECK(min_val <= max_val, "hardtanh",
              "min_val must not be greater than max_val, got min_val {} and max_val {}", min_val,
              max_val);
  return activation({ActivationKind::Hardtanh, {min_val, max_val}}, input, "hardtanh");
}

Tensor relu6(const Tensor& input) {
  return activation({ActivationKind::Hardtanh, {0.0, 6.0}}, input, "relu6");
}

Tensor hardsigmoid(const Tensor& input) {
  return activation({ActivationKind::Hardsigmoid}, input, "hardsigmoid");
}

Tensor hardswish(const Tensor& input) {
  return activation({ActivationKind::Hardswish}, input, "hardswish");
}

Tensor mish(const Tensor& input) { return activation({ActivationKind::Mish}, input, "mish"); }

Tensor log_sigmoid(const Tensor& input) {
  return activation({ActivationKind::LogSigmoid}, input, "log_sigmoid");
}

Tensor softshrink(const Tensor& input, double lambd) {
  ACCEL_CHECK(lambd >= 0, "softshrink", "lambd must be greater than or equal to 0, got {}", lambd);
  return activation({ActivationKind::Softshrink, {lambd}}, input, "softshrink");
}

Tensor hardshrink(const Tensor& input, double lambd) {
  return activation({ActivationKind::Hardshrink, {lambd}}, input, "hardshrink");
}

Tensor threshold(const Tensor& input, double threshold, double value) {
  return activation({ActivationKind::Threshold, {threshold, value}}, input, "threshold");
}

Tensor leaky_relu(const Tensor& input, double negative_slope) {
  return activation({ActivationKind::LeakyRelu, {negative_slope}}, input, "leaky_relu");
}

Tensor softsign(const Tensor& input) {
  return activation({ActivationKind::Softsign}, input, "softsign");
}

Tensor tanhshrink(const Tensor& input) {
  return activation({ActivationKind::Tanhshrink}, input, "tanhshrink");
}

}  // namespace accel
