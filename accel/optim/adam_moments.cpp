// Adam's moment updates and weight decay as tensor ops, in torch.optim's single-tensor order.
#include "accel/optim/adam_moments.h"

#include "accel/core/ops.h"

namespace accel::optim::detail {

Tensor weight_decayed_gradient(const Tensor& param, const Tensor& grad, double grad_scale,
                               bool maximize, double lr, double weight_decay, bool decoupled) {
  if (decoupled && weight_decay != 0) param.mul_(1 - lr * weight_decay);
  return descent_gradient(param, grad, grad_scale, maximize, decoupled ? 0.0 : weight_decay);
}

void update_moments(const Tensor& exp_avg, const Tensor& exp_avg_sq, const Tensor& g,
                    const Betas& betas) {
  const auto [beta1, beta2] = betas;
  exp_avg.copy_(lerp(exp_avg, g, 1 - beta1));
  exp_avg_sq.copy_(addcmul(exp_avg_sq.mul_(beta2), g, g, 1 - beta2));
}

}  // namespace accel::optim::detail
