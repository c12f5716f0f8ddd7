// Gradient clipping with PyTorch's formulas: the total norm is the norm of the per-gradient
// norms, and the clip coefficient is applied as one multiply per gradient.
#include "accel/nn/utils/clip_grad.h"

#include <cmath>
#include <vector>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::utils {

Tensor clip_grad_norm_(TensorList parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  ACCEL_CHECK(norm_type > 0 && !std::isnan(norm_type), "clip_grad_norm_",
              "norm_type must be positive or infinity, got {}", norm_type);
  NoGradGuard no_grad;
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters) {
    if (p.grad().defined()) grads.push_back(p.grad());
  }
  if (grads.empty()) return scalar_tensor(0.0, kFloat32);
  std::vector<Tensor> norms;
  for (const Tensor& g : grads) norms.push_back(norm(g, norm_type));
  const ScalarType norm_dtype = norms.front().dtype();
  for (Tensor& n : norms) n = n.to(norm_dtype);
  Tensor total_norm = norm(stack(norms), norm_type);
  if (error_if_nonfinite) {
    const double value = total_norm.item<double>();
    ACCEL_CHECK(std::isfinite(value), "clip_grad_norm_",
                "the total norm of order {} of the gradients is {}, so they cannot be clipped; "
                "pass error_if_nonfinite = false to skip this check",
                norm_type, value);
  }
  const Tensor clip_coef = clamp(max_norm / (total_norm + 1e-6), std::nullopt, 1.0);
  for (const Tensor& g : grads) {
    Tensor grad = g;
    grad.mul_(clip_coef.to(g.dtype()));
  }
  return total_norm;
}

void clip_grad_value_(TensorList parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const Tensor& p : parameters) {
    if (!p.grad().defined()) continue;
    Tensor grad = p.grad();
    grad.clamp_(-clip_value, clip_value);
  }
}

Tensor parameters_to_vector(TensorList parameters) {
  std::vector<Tensor> flat;
  for (const Tensor& p : parameters) flat.push_back(p.reshape({-1}));
  return cat(flat);
}

}  // namespace accel::nn::utils
