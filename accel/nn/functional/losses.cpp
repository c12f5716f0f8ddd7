// The loss functions of losses.h. Most are compositions of core ops and inherit their
// gradients; cross_entropy over class indices is one fused kernel pair (kernels/backend.h)
// whose backward recomputes the softmax from the log-sum-exp the forward saved, never storing
// probabilities or a one-hot matrix, and binary_cross_entropy carries PyTorch's own clamped
// backward.
#include "accel/nn/functional/losses.h"

#include <cmath>

#include "accel/base/error.h"
#include "accel/core/autocast.h"
#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"
#include "accel/kernels/common/cross_entropy_math.h"
#include "accel/nn/functional/loss_support.h"

namespace accel::nn::functional {
namespace {

// What nll_loss knows about class-index targets: the target with ignored positions replaced
// by class 0 (safe to gather), each position's weight (weight[target], 0 where ignored) and
// the not-ignored mask, all of the target's shape.
struct ClassTargets {
  Tensor safe_target;
  Tensor weights;
  Tensor kept;
};

// Checks input [N, C, d1...] against target [N, d1...] (int64) and the class weights [C],
// both on the input's device.
void check_class_shapes(const char* op, const Tensor& input, const Tensor& target,
                        const Tensor& weight) {
  ACCEL_CHECK(input.dim() >= 2, op, "expected input of shape [N, C, ...], got {}", input.sizes());
  const int64_t classes = input.size(1);
  ACCEL_CHECK(target.dtype() == kInt64, op,
              "expected class-index targets of dtype int64 (or, for class probabilities, a "
              "floating target of the input's shape {}), got {} of shape {}",
              input.sizes(), to_string(target.dtype()), target.sizes());
  bool shape_ok = target.dim() == input.dim() - 1 && target.size(0) == input.size(0);
  for (int64_t d = 1; shape_ok && d < target.dim(); ++d) {
    shape_ok = target.size(d) == input.size(d + 1);
  }
  ACCEL_CHECK(shape_ok, op, "expected target of shape {} without the class dim (input {}), got {}",
              input.sizes(), input.sizes(), target.sizes());
  ACCEL_CHECK(target.device() == input.device(), op,
              "expected the target on the input's device {}, got {}", input.device(),
              target.device());
  if (weight.defined()) {
    ACCEL_CHECK(weight.dim() == 1 && weight.size(0) == classes, op,
                "expected a weight of shape [{}] (one per class), got {}", classes, weight.sizes());
    check_floating(op, weight, "weight");
    ACCEL_CHECK(weight.device() == input.device(), op,
                "expected the weight on the input's device {}, got {}", input.device(),
                weight.device());
  }
}

// check_class_shapes, and every target a class or the ignore_index: a CPU target is checked
// here at once; on a device the ignored positions become class 0 and the device checks the
// rest as indices into dim 1 (raised at the next synchronization), so nothing waits for it.
void check_class_targets(const char* op, const Tensor& input, const Tensor& target,
                         const Tensor& weight, int64_t ignore_index) {
  check_class_shapes(op, input, target, weight);
  const int64_t classes = input.size(1);
  if (!target.device().is_cpu()) {
    const Tensor classes_only = target.masked_fill(target == ignore_index, 0).contiguous();
    backend(target.device())
        .check_indices(kInt64, classes_only.data_ptr(), classes_only.numel(), classes, {op, 1},
                       current_stream(target.device()));
    return;
  }
  const Tensor values = target.contiguous();
  const int64_t* v = values.data_ptr<int64_t>();
  for (int64_t i = 0; i < values.numel(); ++i) {
    ACCEL_CHECK(math::is_valid_class_target(v[i], classes, ignore_index), op,
                math::kClassTargetOutOfRange, v[i], classes, classes - 1, ignore_index);
  }
}

ClassTargets class_targets(const Tensor& input, const Tensor& target, const Tensor& weight,
                           int64_t ignore_index) {
  const Tensor ignored = target == ignore_index;
  ClassTargets t;
  t.safe_target = target.masked_fill(ignored, 0);
  t.kept = ones(target.sizes(), TensorOptions(input.dtype()).device(input.device()))
               .masked_fill(ignored, 0);
  t.weights = weight.defined()
                  ? weight.index_select(0, t.safe_target.flatten()).view(target.sizes()) * t.kept
                  : t.kept;
  return t;
}

// Per-class weights shaped [1, C, 1, ...] to broadcast against an input of `dims` dims.
Tensor class_dim_view(const Tensor& weight, int64_t dims) {
  DimVector shape(static_cast<size_t>(dims), 1);
  shape[1] = weight.size(0);
  return weight.view(shape);
}

// Runs a class-dim loss on [C]-shaped input (one sample) as a batch of one.
template <typename Loss>
Tensor unbatched(const Tensor& input, const Tensor& target, Reduction reduction, Loss loss) {
  const Tensor out = loss(input.unsqueeze(0), target.unsqueeze(0));
  return reduction == Reduction::None ? out.squeeze(0) : out;
}

Tensor cross_entropy_probabilities(const Tensor& input, const Tensor& target,
                                   const CrossEntropyFuncOptions& options) {
  constexpr const char* op = "cross_entropy";
  ACCEL_CHECK(options.ignore_index() == -100, op,
              "ignore_index is not supported for class-probability (floating) targets, got {}",
              options.ignore_index());
  ACCEL_CHECK(target.sizes() == input.sizes(), op,
              "floating targets are class probabilities and must have the input's shape {}, "
              "got {} (class-index targets must be int64)",
              input.sizes(), target.sizes());
  const int64_t classes = input.size(1);
  const double eps = options.label_smoothing();
  const Tensor smoothed =
      eps > 0 ? target * (1 - eps) + eps / static_cast<double>(classes) : target;
  Tensor terms = input.log_softmax(1) * smoothed;
  const Tensor weight = optional_weight(options.weight(), input);
  if (weight.defined()) {
    ACCEL_CHECK(weight.dim() == 1 && weight.size(0) == classes, op,
                "expected a weight of shape [{}] (one per class), got {}", classes, weight.sizes());
    terms = terms * class_dim_view(weight, input.dim());
  }
  const Tensor loss = -terms.sum({1});
  if (options.reduction() != Reduction::Mean) return reduce(loss, options.reduction());
  return loss.sum() / static_cast<double>(input.numel() / classes);
}

// Fused log_softmax + weighted, smoothed nll over class indices (formulas in
// kernels/common/cross_entropy_math.h). The forward kernel checks the targets (on a device, at
// the next synchronization), folds ignore_index and the class weights in, and writes each
// position's loss and log-sum-exp; the node saves the logits, targets and log-sum-exp, and its
// backward kernel recomputes the softmax from them.
Tensor cross_entropy_indices(const Tensor& input, const Tensor& target,
                             const CrossEntropyFuncOptions& options) {
  constexpr const char* op = "cross_entropy";
  const Tensor weight = optional_weight(options.weight(), input);
  check_class_shapes(op, input, target, weight);
  const Tensor x = input.contiguous();
  const Tensor t = target.contiguous();
  const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
  ReduceShape shape{x.size(0), x.size(1), 1};
  for (int64_t d = 2; d < x.dim(); ++d) shape.inner *= x.size(d);
  const math::CrossEntropyScalars scalars{options.ignore_index(), options.label_smoothing()};
  const Reduction reduction = options.reduction();

  // lse in the kernels' accumulate type; target weights only where a mean divides by them.
  const Tensor loss = empty(t.sizes(), x.options());
  const Tensor lse =
      empty(t.sizes(), x.options().dtype(x.dtype() == kFloat64 ? kFloat64 : kFloat32));
  const Tensor target_weight =
      reduction == Reduction::Mean ? empty(t.sizes(), x.options()) : Tensor();
  backend(x.device())
      .cross_entropy_forward(x.dtype(), x.data_ptr(), t.data_ptr<int64_t>(),
                             w.defined() ? w.data_ptr() : nullptr, loss.data_ptr(), lse.data_ptr(),
                             target_weight.defined() ? target_weight.data_ptr() : nullptr, shape,
                             scalars, current_stream(x.device()));
  // A tensor, not a host number: no device round-trip in the forward.
  const Tensor total_weight = reduction == Reduction::Mean ? target_weight.sum() : Tensor();
  const Tensor out = reduction == Reduction::None  ? loss
                     : reduction == Reduction::Sum ? loss.sum()
                                                   : loss.sum() / total_weight;
  if (autograd::should_record(input)) {
    autograd::record(
        op, {input}, out,
        [sx = autograd::SavedTensor(x), st = autograd::SavedTensor(t), w, lse, total_weight, shape,
         scalars, reduction](const Tensor& grad, autograd::GradInputs& in) {
          if (!in.needs(0)) return;
          const Tensor& logits = sx.get();
          // The upstream gradient per position: one number unless the reduction is none.
          const Tensor g = (reduction == Reduction::Mean ? grad / total_weight : grad)
                               .to(logits.dtype())
                               .contiguous();
          const Tensor grad_in = empty(logits.sizes(), logits.options());
          backend(logits.device())
              .cross_entropy_backward(
                  logits.dtype(), logits.data_ptr(), st.get().data_ptr<int64_t>(),
                  w.defined() ? w.data_ptr() : nullptr, lse.data_ptr(), g.data_ptr(),
                  reduction != Reduction::None, grad_in.data_ptr(), shape, scalars,
                  current_stream(logits.device()));
          in[0] = grad_in;
        });
  }
  return out;
}

}  // namespace

Tensor cross_entropy(const Tensor& input_, const Tensor& target,
                     const CrossEntropyFuncOptions& options) {
  constexpr const char* op = "cross_entropy";
  const Tensor input = loss_input(op, input_, "input");
  ACCEL_CHECK(target.defined(), op, "target is undefined");
  const double eps = options.label_smoothing();
  ACCEL_CHECK(eps >= 0 && eps <= 1, op, "label_smoothing must be in [0, 1], got {}", eps);
  ACCEL_CHECK(input.dim() >= 1, op, "expected input of shape [C] or [N, C, ...], got {}",
              input.sizes());
  auto loss = [&](const Tensor& x, const Tensor& y) {
    return y.is_floating_point()
               ? cross_entropy_probabilities(
                     x, autocast_input(y, CastPolicy::Float32).to(x.dtype()), options)
               : cross_entropy_indices(x, y, options);
  };
  if (input.dim() == 1) return unbatched(input, target, options.reduction(), loss);
  return loss(input, target);
}

Tensor nll_loss(const Tensor& input_, const Tensor& target, const NLLLossFuncOptions& options) {
  constexpr const char* op = "nll_loss";
  const Tensor input = loss_input(op, input_, "input");
  ACCEL_CHECK(target.defined(), op, "target is undefined");
  ACCEL_CHECK(input.dim() >= 1, op, "expected input of shape [C] or [N, C, ...], got {}",
              input.sizes());
  auto loss = [&](const Tensor& x, const Tensor& y) {
    const Tensor weight = optional_weight(options.weight(), x);
    check_class_targets(op, x, y, weight, options.ignore_index());
    const ClassTargets t = class_targets(x, y, weight, options.ignore_index());
    const Tensor per = -x.gather(1, t.safe_target.unsqueeze(1)).squeeze(1) * t.weights;
    if (options.reduction() != Reduction::Mean) return reduce(per, options.reduction());
    return per.sum() / t.weights.sum();
  };
  if (input.dim() == 1) return unbatched(input, target, options.reduction(), loss);
  return loss(input, target);
}

Tensor mse_loss(const Tensor& input_, const Tensor& target_, const MSELossFuncOptions& options) {
  constexpr const char* op = "mse_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_target_broadcasts(op, input, target);
  const Tensor diff = input - target;
  return reduce(diff * diff, options.reduction());
}

Tensor l1_loss(const Tensor& input_, const Tensor& target_, const L1LossFuncOptions& options) {
  constexpr const char* op = "l1_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_target_broadcasts(op, input, target);
  return reduce((input - target).abs(), options.reduction());
}

Tensor smooth_l1_loss(const Tensor& input_, const Tensor& target_,
                      const SmoothL1LossFuncOptions& options) {
  constexpr const char* op = "smooth_l1_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_target_broadcasts(op, input, target);
  const double beta = options.beta();
  ACCEL_CHECK(beta >= 0, op, "beta must be non-negative, got {}", beta);
  const Tensor z = (input - target).abs();
  if (beta == 0) return reduce(z, options.reduction());
  return reduce(where(z < beta, z * z * (0.5 / beta), z - 0.5 * beta), options.reduction());
}

Tensor huber_loss(const Tensor& input_, const Tensor& target_,
                  const HuberLossFuncOptions& options) {
  constexpr const char* op = "huber_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_target_broadcasts(op, input, target);
  const double delta = options.delta();
  ACCEL_CHECK(delta > 0, op, "delta must be positive, got {}", delta);
  const Tensor z = (input - target).abs();
  return reduce(where(z < delta, z * z * 0.5, (z - 0.5 * delta) * delta), options.reduction());
}

// loss = -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100)); PyTorch's backward is
// w (x - y) / max(x (1 - x), 1e-12) for x and -w logit(x) for y, also where the log clamps.
Tensor binary_cross_entropy(const Tensor& input_, const Tensor& target_,
                            const BinaryCrossEntropyFuncOptions& options) {
  constexpr const char* op = "binary_cross_entropy";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_input(op, target_, "target");
  check_same_shape(op, input, target);
  const Tensor weight = optional_weight(options.weight(), input);
  if (weight.defined()) check_broadcastable(op, input, weight);
  const bool record = autograd::should_record(input, target);
  Tensor loss;
  {
    NoGradGuard no_grad;
    ACCEL_CHECK(input.numel() == 0 ||
                    (input.amin().item<double>() >= 0 && input.amax().item<double>() <= 1),
                op, "all elements of input must be in [0, 1], got values in [{}, {}]",
                input.amin().item<double>(), input.amax().item<double>());
    const Tensor log_x = input.log().clamp_min(-100);
    const Tensor log_1mx = (1 - input).log().clamp_min(-100);
    loss = (target - 1) * log_1mx - target * log_x;
    if (weight.defined()) loss = loss * weight;
  }
  if (record) {
    autograd::record(op, {input, target}, loss,
                     [x = input.detach(), y = target.detach(), weight](const Tensor& grad,
                                                                       autograd::GradInputs& in) {
                       const Tensor g = weight.defined() ? grad * weight : grad;
                       if (in.needs(0)) {
                         in[0] = g * (x - y) / (x * (1 - x)).clamp_min(1e-12);
                       }
                       if (in.needs(1)) in[1] = g * ((1 - x).log() - x.log());
                     });
  }
  return reduce(loss, options.reduction());
}

// max(x, 0) - x y + log(1 + exp(-|x|)) never overflows; with pos_weight p the log term
// is scaled by 1 + (p - 1) y.
Tensor binary_cross_entropy_with_logits(const Tensor& input_, const Tensor& target_,
                                        const BinaryCrossEntropyWithLogitsFuncOptions& options) {
  constexpr const char* op = "binary_cross_entropy_with_logits";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_input(op, target_, "target");
  check_same_shape(op, input, target);
  const Tensor weight = optional_weight(options.weight(), input);
  const Tensor pos_weight = optional_weight(options.pos_weight(), input);
  if (weight.defined()) check_broadcastable(op, input, weight);
  if (pos_weight.defined()) check_broadcastable(op, input, pos_weight);
  const Tensor log_sigmoid_neg = (-input.abs()).exp().add(1).log() + (-input).relu();
  Tensor loss = pos_weight.defined()
                    ? (1 - target) * input + ((pos_weight - 1) * target + 1) * log_sigmoid_neg
                    : (1 - target) * input + log_sigmoid_neg;
  if (weight.defined()) loss = loss * weight;
  return reduce(loss, options.reduction());
}

Tensor kl_div(const Tensor& input_, const Tensor& target_, const KLDivFuncOptions& options) {
  constexpr const char* op = "kl_div";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_broadcastable(op, input, target);
  // target log(target) is 0 where target is 0 (PyTorch's xlogy); the safe log keeps the
  // unused branch's gradient finite.
  const Tensor loss = options.log_target()
                          ? target.exp() * (target - input)
                          : target * where(target > 0, target, 1.0).log() - target * input;
  switch (options.reduction()) {
    case KLDivReduction::None:
      return loss;
    case KLDivReduction::Sum:
      return loss.sum();
    case KLDivReduction::BatchMean:
      return input.dim() == 0 ? loss.sum() : loss.sum() / static_cast<double>(input.size(0));
    case KLDivReduction::Mean:
      break;
  }
  return loss.mean();
}

// exp(x) - y x with log_input, else x - y log(x + eps); full adds y log(y) - y +
// log(2 pi y) / 2 where y > 1.
Tensor poisson_nll_loss(const Tensor& input_, const Tensor& target_,
                        const PoissonNLLLossFuncOptions& options) {
  constexpr const char* op = "poisson_nll_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  check_broadcastable(op, input, target);
  Tensor loss = options.log_input() ? input.exp() - target * input
                                    : input - target * (input + options.eps()).log();
  if (options.full()) {
    const Tensor stirling = target * target.log() - target + (2 * M_PI * target).log() * 0.5;
    loss = loss + stirling.masked_fill(target <= 1, 0);
  }
  return reduce(loss, options.reduction());
}

// The variance clamped at eps in value only: PyTorch clamps a copy in place without recording,
// so the gradient reaches var as if unclamped.
Tensor gaussian_nll_loss(const Tensor& input_, const Tensor& target_, const Tensor& var_,
                         const GaussianNLLLossFuncOptions& options) {
  constexpr const char* op = "gaussian_nll_loss";
  const Tensor input = loss_input(op, input_, "input");
  const Tensor target = loss_target(op, target_, input);
  Tensor var = loss_input(op, var_, "var");
  check_broadcastable(op, input, target);
  if (var.sizes() != input.sizes()) {
    const IntArrayRef sizes = input.sizes();
    if (input.dim() > 0 && var.sizes() == IntArrayRef(sizes.data(), sizes.size() - 1)) {
      var = var.unsqueeze(-1);
    } else {
      int64_t mismatched = 0;
      for (int64_t d = 0; d < input.dim() && var.dim() == input.dim(); ++d) {
        if (var.size(d) != input.size(d)) mismatched += var.size(d);
      }
      ACCEL_CHECK(var.dim() == input.dim() && mismatched == 1, op,
                  "var of shape {} does not fit input {}: give the input's shape, or it with "
                  "one dim 1 or the last dim left out",
                  var.sizes(), input.sizes());
    }
  }
  {
    NoGradGuard no_grad;
    ACCEL_CHECK(var.numel() == 0 || var.amin().item<double>() >= 0, op,
                "var has negative entries (smallest {})", var.amin().item<double>());
  }
  const Tensor clamped = var + (var.clamp_min(options.eps()) - var).detach();
  const Tensor diff = input - target;
  Tensor loss = (clamped.log() + diff * diff / clamped) * 0.5;
  if (options.full()) loss = loss + 0.5 * std::log(2 * M_PI);
  return reduce(loss, options.reduction());
}

}  // namespace accel::nn::functional
