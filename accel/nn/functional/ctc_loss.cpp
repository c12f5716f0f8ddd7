// ctc_loss by the forward recursion over the target's extended labels (a blank before, between
// and after its labels), composed of ops so autograd gives the gradient. The recursion runs on
// probabilities in float64, each step's row normalized to sum 1 and its log-sum kept (Graves'
// scaling), which never underflows and needs no log of zero: a target no alignment reaches is
// flagged instead (a zero sum), and its loss is infinity (or zero with zero_infinity).
//
// PyTorch's gradient for log_probs adds exp(log_probs) at every time step inside the input
// length, which leaves the gradient of the logits of a log_softmax unchanged (the added term
// sums to one, which log_softmax's backward removes) and is here the gradient of a zero-valued
// term, so both agree for any input.
#include "accel/nn/functional/ctc_loss.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/loss_support.h"

namespace accel::nn::functional {

namespace {

constexpr const char* kOp = "ctc_loss";

std::vector<int64_t> host_integers(const Tensor& t, const char* what) {
  ACCEL_CHECK(t.defined() && !t.is_floating_point() && t.dtype() != kBool, kOp,
              "expected {} as an integer tensor", what);
  const Tensor c = t.to(kCPU).to(kInt64).contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

// The extended label sequences of a batch, [N, L] with L = 2 * max target length + 1: blank,
// label 1, blank, label 2, ..., blank; and per position whether it exists for that sample and
// whether an alignment may reach it by skipping the blank before it (a label differing from
// the label two positions back).
struct Extended {
  Tensor labels, exists, may_skip;
  std::vector<int64_t> target_lengths;
};

Extended extended_labels(const Tensor& targets, const std::vector<int64_t>& target_lengths,
                         int64_t batch, int64_t classes, int64_t blank, Device device) {
  const std::vector<int64_t> flat = host_integers(targets, "targets");
  const bool padded = targets.dim() == 2;
  int64_t longest = 0;
  int64_t total = 0;
  for (int64_t length : target_lengths) {
    ACCEL_CHECK(length >= 0, kOp, "target lengths must be non-negative, got {}", target_lengths);
    longest = std::max(longest, length);
    total += length;
  }
  if (padded) {
    ACCEL_CHECK(targets.size(0) == batch && longest <= targets.size(1), kOp,
                "expected padded targets [{}, >= {}] for target lengths {}, got {}", batch, longest,
                target_lengths, targets.sizes());
  } else {
    ACCEL_CHECK(targets.dim() == 1 && targets.numel() >= total, kOp,
                "expected 1-D targets holding the {} labels of target lengths {}, got {}", total,
                target_lengths, targets.sizes());
  }
  const int64_t positions = 2 * longest + 1;
  std::vector<int64_t> labels(static_cast<size_t>(batch * positions), blank);
  std::vector<double> exists(labels.size(), 0.0), may_skip(labels.size(), 0.0);
  int64_t next = 0;  // the next label of a 1-D targets tensor
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t length = target_lengths[static_cast<size_t>(n)];
    const int64_t first = padded ? n * targets.size(1) : next;
    next += padded ? 0 : length;
    for (int64_t s = 0; s < 2 * length + 1; ++s) {
      const auto at = static_cast<size_t>(n * positions + s);
      exists[at] = 1;
      if (s % 2 == 0) continue;
      const int64_t label = flat[static_cast<size_t>(first + s / 2)];
      ACCEL_CHECK(label >= 0 && label < classes && label != blank, kOp,
                  "target labels must lie in [0, {}) and differ from the blank {}, got {}", classes,
                  blank, label);
      labels[at] = label;
      may_skip[at] = s >= 3 && labels[at - 2] != label ? 1 : 0;
    }
  }
  const auto as_tensor = [&](const auto& values, TensorOptions options) {
    return tensor(values, options.device(device)).view({batch, positions});
  };
  return {as_tensor(labels, kInt64), as_tensor(exists, kFloat64), as_tensor(may_skip, kFloat64),
          target_lengths};
}

// t shifted `by` positions along dim 1, zeros coming in.
Tensor shifted(const Tensor& t, int64_t by) {
  const int64_t positions = t.size(1);
  if (by >= positions) return zeros_like(t);
  return cat({zeros({t.size(0), by}, t.options()), t.narrow(1, 0, positions - by)}, 1);
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs_in, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, const CTCLossFuncOptions& options) {
  ACCEL_CHECK(log_probs_in.defined() && (log_probs_in.dim() == 3 || log_probs_in.dim() == 2), kOp,
              "expected log_probs [T, N, C] or unbatched [T, C], got {}",
              log_probs_in.defined() ? log_probs_in.sizes() : IntArrayRef{});
  const Tensor log_probs = loss_input(kOp, log_probs_in, "log_probs");
  const bool batched = log_probs.dim() == 3;
  const Tensor lp = (batched ? log_probs : log_probs.unsqueeze(1)).to(kFloat64);
  const int64_t steps = lp.size(0), batch = lp.size(1), classes = lp.size(2);
  ACCEL_CHECK(options.blank() >= 0 && options.blank() < classes, kOp,
              "blank must be in [0, {}), got {}", classes, options.blank());
  const std::vector<int64_t> input_length = host_integers(input_lengths, "input_lengths");
  const std::vector<int64_t> target_length = host_integers(target_lengths, "target_lengths");
  ACCEL_CHECK(static_cast<int64_t>(input_length.size()) == batch &&
                  static_cast<int64_t>(target_length.size()) == batch,
              kOp, "expected {} input and target lengths, got {} and {}", batch,
              input_length.size(), target_length.size());
  for (int64_t length : input_length) {
    ACCEL_CHECK(length >= 1 && length <= steps, kOp,
                "input lengths must be in [1, {}] (the time steps), got {}", steps, input_length);
  }
  const Extended ext = extended_labels(batched ? targets : targets.unsqueeze(0), target_length,
                                       batch, classes, options.blank(), lp.device());
  const int64_t positions = ext.labels.size(1);
  // The probability of each extended label at every step: [T, N, L].
  const Tensor label_probs =
      lp.exp().gather(2, ext.labels.unsqueeze(0).expand({steps, batch, positions})) * ext.exists;
  const Tensor steps_done = tensor(input_length, TensorOptions(kInt64).device(lp.device()));
  // alpha: the probability of the prefixes of alignments ending at each position, scaled so
  // each row sums to one; log_scale: the log of the scales taken out.
  Tensor alpha = label_probs[0] *
                 lt(arange(positions, TensorOptions(kInt64).device(lp.device())), 2).to(kFloat64);
  Tensor log_scale = zeros({batch}, lp.options());
  Tensor unreachable = zeros({batch}, TensorOptions(kBool).device(lp.device()));
  for (int64_t t = 0; t < steps; ++t) {
    if (t > 0) {
      const Tensor next =
          (alpha + shifted(alpha, 1) + shifted(alpha, 2) * ext.may_skip) * label_probs[t];
      alpha = where(gt(steps_done, t).unsqueeze(1), next, alpha);
    }
    const Tensor total = alpha.sum(1);
    const Tensor active = gt(steps_done, t);
    const Tensor empty_row = logical_and(active, eq(total, 0));
    unreachable = logical_or(unreachable, empty_row);
    const Tensor scale = where(logical_and(active, logical_not(empty_row)), total, 1.0);
    alpha = alpha / scale.unsqueeze(1);
    log_scale = log_scale + scale.log();
  }
  // Alignments end on the last label or the blank after it.
  std::vector<int64_t> last(static_cast<size_t>(batch)), before_last(last.size());
  for (size_t n = 0; n < last.size(); ++n) {
    last[n] = 2 * target_length[n];
    before_last[n] = std::max<int64_t>(2 * target_length[n] - 1, 0);
  }
  const TensorOptions index_options = TensorOptions(kInt64).device(lp.device());
  const Tensor end =
      alpha.gather(1, tensor(last, index_options).unsqueeze(1)).squeeze(1) +
      where(gt(tensor(target_length, index_options), 0),
            alpha.gather(1, tensor(before_last, index_options).unsqueeze(1)).squeeze(1), 0.0);
  unreachable = logical_or(unreachable, eq(end, 0));
  // PyTorch's extra gradient (see the file comment): exp(log_probs) within each input length.
  const Tensor within = gt(steps_done.unsqueeze(0), arange(steps, index_options).unsqueeze(1));
  const Tensor exp_sum = (lp.exp().sum(2) * within).sum(0);
  Tensor loss = -(log_scale + where(unreachable, 1.0, end).log()) + (exp_sum - exp_sum.detach());
  loss = where(unreachable, options.zero_infinity() ? 0.0 : std::numeric_limits<double>::infinity(),
               loss);
  if (options.reduction() == Reduction::Mean) {
    loss = loss / tensor(target_length, index_options).clamp(1, std::nullopt).to(kFloat64);
  }
  loss = reduce(loss, options.reduction()).to(log_probs.dtype());
  return batched || options.reduction() != Reduction::None ? loss : loss.squeeze(0);
}

}  // namespace accel::nn::functional
