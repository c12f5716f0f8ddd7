"""Reference cases for the view ops (tests/core/ops_view_test.cpp)."""
import torch

from op_case import Case, S

CASES = {
    "view": Case(lambda a: a.view(4, 6), [S(2, 3, 4)]),
    "view_infer": Case(lambda a: a.view(-1, 2), [S(2, 3, 4)]),
    "view_of_slice": Case(lambda a: a[1:3].view(-1), [S(4, 3)]),
    "reshape": Case(lambda a: a.reshape(3, 8), [S(2, 3, 4)]),
    "reshape_transposed_copy": Case(lambda a: a.t().reshape(-1), [S(3, 4)]),
    "reshape_transposed_view": Case(lambda a: a.transpose(0, 1).reshape(2, 2, 3), [S(3, 4)]),
    "flatten": Case(lambda a: a.flatten(), [S(2, 3, 2)]),
    "flatten_range": Case(lambda a: a.flatten(1, 2), [S(2, 3, 2, 2)]),
    "flatten_negative": Case(lambda a: a.flatten(-2, -1), [S(2, 3, 2)]),
    "squeeze": Case(lambda a: a.squeeze(), [S(2, 1, 3, 1)]),
    "squeeze_dim": Case(lambda a: a.squeeze(1), [S(2, 1, 3)]),
    "squeeze_negative_dim": Case(lambda a: a.squeeze(-1), [S(2, 3, 1)]),
    "squeeze_dim_not_one": Case(lambda a: a.squeeze(0), [S(2, 3)]),
    "unsqueeze": Case(lambda a: a.unsqueeze(1), [S(2, 3)]),
    "unsqueeze_negative": Case(lambda a: a.unsqueeze(-1), [S(2, 3)]),
    "permute": Case(lambda a: a.permute(2, 0, 1), [S(2, 3, 4)]),
    "permute_negative": Case(lambda a: a.permute(-1, 0, -2), [S(2, 3, 4)]),
    "transpose": Case(lambda a: a.transpose(0, 2), [S(2, 3, 4)]),
    "transpose_negative": Case(lambda a: a.transpose(-1, -2), [S(2, 3, 4)]),
    "t": Case(lambda a: a.t(), [S(3, 4)]),
    "t_1d": Case(lambda a: a.t(), [S(3)]),
    "expand": Case(lambda a: a.expand(2, 3, 4), [S(3, 1)]),
    "expand_minus_one": Case(lambda a: a.expand(-1, 5), [S(3, 1)]),
    "narrow": Case(lambda a: a.narrow(1, 1, 3), [S(4, 5)]),
    "narrow_negative_start": Case(lambda a: a.narrow(0, -3, 2), [S(4, 5)]),
    "slice": Case(lambda a: a[1:3], [S(4, 3)]),
    "slice_step": Case(lambda a: a[:, 1::2], [S(3, 7)]),
    "slice_negative": Case(lambda a: a[-3:-1], [S(5, 2)]),
    "select": Case(lambda a: a.select(1, 2), [S(3, 4)]),
    "select_negative_index": Case(lambda a: a.select(0, -1), [S(3, 4)]),
    "chain": Case(lambda a: a.transpose(0, 1)[1:].unsqueeze(0).expand(2, -1, -1).reshape(2, -1),
                  [S(3, 4)]),
    # Rearrangements composed of views and index ops; appended so the cases above keep their
    # random draws.
    "flip": Case(lambda a: a.flip([0, -1]), [S(3, 2, 4)]),
    "repeat": Case(lambda a: a.repeat(2, 1, 3), [S(2, 3)]),
    "tril": Case(lambda a: a.tril(), [S(2, 3, 4)]),
    "triu_offset": Case(lambda a: torch.triu(a, 1), [S(4, 3)]),
    "tril_negative_offset": Case(lambda a: torch.tril(a, -1), [S(3, 3)]),
}
