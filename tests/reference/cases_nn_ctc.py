"""Reference cases for F.ctc_loss (tests/nn/ctc_loss_test.cpp). The input is logits and each
case takes log_softmax first: PyTorch's gradient for log_probs adds exp(log_probs), which is no
true derivative of the loss but vanishes through log_softmax, so the logits' gradient is both
PyTorch's and the finite differences'."""
import torch
import torch.nn.functional as F

from op_case import Case, S

# Sample 0 repeats a label (an alignment needs a blank between the two 2s).
PADDED = torch.tensor([[1, 2, 2], [3, 1, 0]])
CONCATENATED = torch.tensor([1, 2, 2, 3, 1])


def ctc(x, targets, input_lengths, target_lengths, **options):
    return F.ctc_loss(x.log_softmax(-1), targets, torch.tensor(input_lengths),
                      torch.tensor(target_lengths), **options)


CASES = {
    "ctc_padded_mean": Case(lambda x: ctc(x, PADDED, [6, 5], [3, 2]), [S(6, 2, 5)]),
    "ctc_concatenated_sum": Case(
        lambda x: ctc(x, CONCATENATED, [6, 4], [3, 2], reduction="sum"), [S(6, 2, 5)]),
    "ctc_blank_last_none": Case(
        lambda x: ctc(x, torch.tensor([[0, 2], [1, 1]]), [4, 6], [2, 2], blank=3,
                      reduction="none"),
        [S(6, 2, 4)]),
    "ctc_empty_target": Case(lambda x: ctc(x, PADDED, [5, 6], [0, 2]), [S(6, 2, 5)]),
    "ctc_zero_infinity": Case(
        lambda x: ctc(x, PADDED, [3, 5], [3, 2], zero_infinity=True, reduction="sum"),
        [S(5, 2, 5)]),
    "ctc_unbatched": Case(lambda x: ctc(x, torch.tensor([1, 3]), 5, 2), [S(5, 4)]),
}
