"""Reference cases for F.embedding_bag (tests/nn/embedding_bag_test.cpp): 2-D inputs and 1-D
inputs with offsets (an empty bag included), every mode, per-sample weights, padding_idx and
include_last_offset, with the table as an input so the fixture holds its gradient."""
import torch
import torch.nn.functional as F

from op_case import Case, S

# Index 1 is padding in the padding case: three of the six entries, one bag all padding.
PADDED_INPUT = torch.tensor([1, 0, 3, 1, 1, 2])

CASES = {
    "embedding_bag_2d_mean": Case(lambda i, w: F.embedding_bag(i, w),
                                  [S(3, 4, domain="int:0:6"), S(6, 3)]),
    "embedding_bag_offsets_sum": Case(
        lambda i, w: F.embedding_bag(i, w, torch.tensor([0, 2, 2, 5]), mode="sum"),
        [S(7, domain="int:0:6"), S(6, 3)]),
    "embedding_bag_offsets_max": Case(
        lambda i, w: F.embedding_bag(i, w, torch.tensor([0, 3]), mode="max"),
        [S(6, domain="int:0:8"), S(8, 4)]),
    "embedding_bag_2d_max": Case(lambda i, w: F.embedding_bag(i, w, mode="max"),
                                 [S(2, 3, domain="int:0:5"), S(5, 2)]),
    "embedding_bag_per_sample_weights": Case(
        lambda i, w, p: F.embedding_bag(i, w, torch.tensor([0, 4]), mode="sum",
                                        per_sample_weights=p),
        [S(6, domain="int:0:6"), S(6, 3), S(6)]),
    "embedding_bag_padding_last_offset": Case(
        lambda w: F.embedding_bag(PADDED_INPUT, w, torch.tensor([0, 3, 5, 6]), mode="mean",
                                  include_last_offset=True, padding_idx=1),
        [S(4, 3)]),
}
