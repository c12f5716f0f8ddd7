// layer_norm as one fused kernel pair (kernels/backend.h): the forward saves each row's mean and
// reciprocal standard deviation, from which the backward writes the input, weight and bias
// gradients in one call. Mixed dtypes (a bfloat16 input with float32 parameters, as under
// autocast) run in the promoted type and are rounded back to the input's, as PyTorch does on
// the CPU. rms_norm, over the same trailing dims, is composed of core ops (autograd
// differentiates it).
#include <limits>

#include "accel/base/error.h"
#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"
#include "accel/nn/functional/normalization.h"

namespace accel::nn::functional {
namespace {

constexpr const char* kOp = "layer_norm";

// What layer_norm and rms_norm ask of their input: floating point, with trailing dims equal to
// a non-empty normalized_shape.
void check_normalized_input(const Tensor& input, IntArrayRef normalized_shape, const char* op) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  bool matches = k >= 1 && input.dim() >= k;
  for (int64_t i = 0; matches && i < k; ++i) {
    matches = input.size(input.dim() - k + i) == normalized_shape[static_cast<size_t>(i)];
  }
  ACCEL_CHECK(matches, op,
              "normalized_shape {} must be non-empty and match the trailing dims of input {}",
              normalized_shape, input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
}

void check_arguments(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                     const Tensor& bias) {
  check_normalized_input(input, normalized_shape, kOp);
  for (const Tensor* t : {&weight, &bias}) {
    if (!t->defined()) continue;
    ACCEL_CHECK(t->sizes() == normalized_shape, kOp,
                "expected weight and bias of shape {} (normalized_shape), got {}", normalized_shape,
                t->sizes());
    ACCEL_CHECK(t->is_floating_point(), kOp, "expected floating-point weight and bias, got {}",
                to_string(t->dtype()));
    ACCEL_CHECK(t->device() == input.device(), kOp,
                "expected weight and bias on the input's device {}, got one on {}", input.device(),
                t->device());
  }
}

// `t` converted to `type` and made contiguous (undefined stays undefined).
Tensor as_operand(const Tensor& t, ScalarType type) {
  return t.defined() ? t.to(type).contiguous() : Tensor();
}

const void* data_or_null(const Tensor& t) { return t.defined() ? t.data_ptr() : nullptr; }
void* data_or_null(Tensor& t) { return t.defined() ? t.data_ptr() : nullptr; }

}  // namespace

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps) {
  check_arguments(input, normalized_shape, weight, bias);
  ScalarType type = input.dtype();
  for (const Tensor* t : {&weight, &bias}) {
    if (t->defined()) type = promote_types(type, t->dtype());
  }
  const Tensor x = as_operand(input, type);
  const Tensor w = as_operand(weight, type);
  const Tensor b = as_operand(bias, type);
  LayerNormShape shape{0, 1};
  for (int64_t size : normalized_shape) shape.cols *= size;
  shape.rows = shape.cols > 0 ? x.numel() / shape.cols : 0;
  const TensorOptions stats_options = x.options().dtype(type == kFloat64 ? kFloat64 : kFloat32);
  Tensor out = empty(x.sizes(), x.options());
  Tensor mean = empty({shape.rows}, stats_options);
  Tensor rstd = empty({shape.rows}, stats_options);
  if (x.numel() > 0) {
    backend(x.device())
        .layer_norm(type, x.data_ptr(), data_or_null(w), data_or_null(b), out.data_ptr(),
                    mean.data_ptr(), rstd.data_ptr(), shape, eps, current_stream(x.device()));
  }
  if (autograd::should_record(x, w, b)) {
    autograd::record(
        kOp, {x, w, b}, out,
        [sx = autograd::SavedTensor(x), sw = autograd::SavedTensor(w), mean, rstd, shape,
         parameter_sizes = DimVector(normalized_shape.begin(), normalized_shape.end()),
         has_bias = b.defined()](const Tensor& grad, autograd::GradInputs& in_grads) {
          const Tensor& x = sx.get();
          const Tensor& w = sw.get();
          const Tensor g = grad.to(x.dtype()).contiguous();
          Tensor grad_in = in_grads.needs(0) ? empty(x.sizes(), x.options()) : Tensor();
          Tensor grad_weight = w.defined() && in_grads.needs(1)
                                   ? empty(as_ref(parameter_sizes), x.options())
                                   : Tensor();
          Tensor grad_bias = has_bias && in_grads.needs(2)
                                 ? empty(as_ref(parameter_sizes), x.options())
                                 : Tensor();
          if (x.numel() > 0) {
            backend(x.device())
                .layer_norm_backward(x.dtype(), g.data_ptr(), x.data_ptr(), mean.data_ptr(),
                                     rstd.data_ptr(), data_or_null(w), data_or_null(grad_in),
                                     data_or_null(grad_weight), data_or_null(grad_bias), shape,
                                     current_stream(x.device()));
          } else {
            if (grad_weight.defined()) grad_weight.zero_();
            if (grad_bias.defined()) grad_bias.zero_();
          }
          if (grad_in.defined()) in_grads[0] = grad_in;
          if (grad_weight.defined()) in_grads[1] = grad_weight;
          if (grad_bias.defined()) in_grads[2] = grad_bias;
        });
  }
  return out.to(input.dtype());
}

Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                std::optional<double> eps) {
  constexpr const char* op = "rms_norm";
  check_normalized_input(input, normalized_shape, op);
  if (weight.defined()) {
    ACCEL_CHECK(weight.sizes() == normalized_shape && weight.is_floating_point(), op,
                "expected a floating-point weight of shape {} (normalized_shape), got {} {}",
                normalized_shape, to_string(weight.dtype()), weight.sizes());
    ACCEL_CHECK(weight.device() == input.device(), op,
                "expected the weight on the input's device {}, got {}", input.device(),
                weight.device());
  }
  // The mean of squares in float32 or float64, as PyTorch computes it; the weight applies
  // before the result is rounded to the input's dtype.
  const ScalarType compute = input.dtype() == kFloat64 ? kFloat64 : kFloat32;
  const double epsilon = eps.value_or(compute == kFloat64 ? std::numeric_limits<double>::epsilon()
                                                          : std::numeric_limits<float>::epsilon());
  DimVector dims;
  for (int64_t d = input.dim() - static_cast<int64_t>(normalized_shape.size()); d < input.dim();
       ++d) {
    dims.push_back(d);
  }
  const Tensor x = input.to(compute);
  Tensor out = mul(x, rsqrt(add(mean(mul(x, x), as_ref(dims), /*keepdim=*/true), epsilon)));
  if (weight.defined()) out = mul(out, weight.to(compute));
  return out.to(input.dtype());
}

}  // namespace accel::nn::functional
