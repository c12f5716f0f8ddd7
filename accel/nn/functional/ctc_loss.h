// torch.nn.functional.ctc_loss: the connectionist temporal classification loss, the negative
// log-probability of a target sequence summed over every alignment of it to the input's time
// steps (labels separated by blanks, repeats merged).
#pragma once

#include "accel/core/arg.h"
#include "accel/core/tensor.h"
#include "accel/nn/functional/losses.h"

namespace accel::nn::functional {

struct CTCLossFuncOptions {
  ACCEL_ARG(int64_t, blank) = 0;
  // Mean: each sample's loss divided by its target length (at least 1), then averaged.
  ACCEL_ARG(Reduction, reduction) = Reduction::Mean;
  // Losses of targets no alignment reaches (infinite) become zero, with zero gradient.
  ACCEL_ARG(bool, zero_infinity) = false;
};

// log_probs [T, N, C] (or [T, C] unbatched): log-probabilities over C classes per time step,
// as log_softmax gives them. targets: [N, S] padded, or 1-D, the targets concatenated.
// input_lengths and target_lengths: [N] (or 0-dim unbatched) integers. The gradient is
// PyTorch's: for log-probabilities of a log_softmax it gives the logits' true gradient.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, const CTCLossFuncOptions& options = {});

}  // namespace accel::nn::functional
