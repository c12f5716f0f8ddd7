"""Reference cases for counting and searching: bincount, histc, count_nonzero, searchsorted,
bucketize, unique, unique_consecutive and isin (tests/core/ops_counting_test.cpp).

None has a gradient. Ties come from small integer domains (halved where a floating input is
wanted, so that every dtype holds the values exactly); sorted sequences are sorted in the case.
"""
import torch

from op_case import Case, S


def sorted_last(t):
    return torch.sort(t, -1).values


CASES = {
    "bincount": Case(torch.bincount, [S(12, domain="int:0:6")], grad=False),
    "bincount_minlength": Case(lambda a: torch.bincount(a, minlength=9),
                               [S(8, domain="int:0:5")], grad=False),
    "bincount_weights": Case(torch.bincount, [S(10, domain="int:0:4"), S(10)], grad=False),
    "histc": Case(lambda a: torch.histc(a, bins=5, min=-1, max=1.5), [S(20)], grad=False),
    "histc_data_range": Case(lambda a: torch.histc(a, bins=6), [S(3, 5)], grad=False),
    "histc_on_edges": Case(lambda a: torch.histc(a, bins=4, min=-1, max=1),
                           [S(11, domain="grid:-1.25:0.25")], grad=False),
    "count_nonzero": Case(torch.count_nonzero, [S(3, 4, domain="int:-1:2")], grad=False),
    "count_nonzero_dims": Case(lambda a: torch.count_nonzero(a * 0.5, (0, 2)),
                               [S(2, 3, 4, domain="int:-1:2")], grad=False),
    "searchsorted": Case(lambda s, v: torch.searchsorted(sorted_last(s), v), [S(6), S(3, 4)],
                         grad=False),
    "searchsorted_ties_left": Case(lambda s, v: torch.searchsorted(sorted_last(s), v),
                                   [S(8, domain="int:0:5"), S(10, domain="int:-1:6")],
                                   grad=False),
    "searchsorted_ties_right": Case(lambda s, v: torch.searchsorted(sorted_last(s), v, right=True),
                                    [S(8, domain="int:0:5"), S(10, domain="int:-1:6")],
                                    grad=False),
    "searchsorted_batched": Case(lambda s, v: torch.searchsorted(sorted_last(s), v, side="right"),
                                 [S(2, 3, 5), S(2, 3, 4)], grad=False),
    "searchsorted_sorter": Case(lambda s, v: torch.searchsorted(s, v, sorter=torch.argsort(s)),
                                [S(7), S(5)], grad=False),
    "bucketize": Case(lambda v, b: torch.bucketize(v, sorted_last(b)), [S(3, 4), S(5)],
                      grad=False),
    "bucketize_right": Case(lambda v, b: torch.bucketize(v * 0.5, sorted_last(b) * 0.5, right=True),
                            [S(2, 6, domain="int:0:6"), S(4, domain="int:0:6")], grad=False),
    "unique": Case(lambda a: torch.unique(a * 0.5), [S(3, 5, domain="int:0:5")], grad=False),
    "unique_inverse": Case(lambda a: torch.unique(a * 0.5, return_inverse=True)[1],
                           [S(3, 5, domain="int:0:5")], grad=False),
    "unique_counts": Case(lambda a: torch.unique(a * 0.5, return_counts=True)[1],
                          [S(3, 5, domain="int:0:5")], grad=False),
    "unique_dim0": Case(lambda a: torch.unique(a, dim=0), [S(7, 3, domain="int:0:2")], grad=False),
    "unique_dim0_inverse": Case(lambda a: torch.unique(a, dim=0, return_inverse=True)[1],
                                [S(7, 3, domain="int:0:2")], grad=False),
    "unique_dim0_counts": Case(lambda a: torch.unique(a, dim=0, return_counts=True)[1],
                               [S(7, 3, domain="int:0:2")], grad=False),
    "unique_dim1": Case(lambda a: torch.unique(a * 0.5, dim=1), [S(2, 8, domain="int:0:2")],
                        grad=False),
    "unique_consecutive": Case(lambda a: torch.unique_consecutive(a * 0.5),
                               [S(12, domain="int:0:3")], grad=False),
    "unique_consecutive_inverse":
        Case(lambda a: torch.unique_consecutive(a, return_inverse=True)[1],
             [S(3, 4, domain="int:0:2")], grad=False),
    "unique_consecutive_counts":
        Case(lambda a: torch.unique_consecutive(a, return_counts=True)[1],
             [S(12, domain="int:0:2")], grad=False),
    "unique_consecutive_dim0": Case(lambda a: torch.unique_consecutive(a, dim=0),
                                    [S(8, 2, domain="int:0:2")], grad=False),
    "isin": Case(torch.isin, [S(3, 4, domain="int:0:8"), S(5, domain="int:0:8")], grad=False),
    "isin_invert": Case(lambda a, b: torch.isin(a * 0.5, b * 0.5, invert=True),
                        [S(2, 5, domain="int:0:8"), S(2, 2, domain="int:0:8")], grad=False),
    # Longer inputs with many ties (appended so the cases above keep their draws).
    "bincount_long": Case(torch.bincount, [S(500, domain="int:0:37")], grad=False),
    "histc_long": Case(lambda a: torch.histc(a, bins=13, min=-2, max=2), [S(400)], grad=False),
    "searchsorted_batched_ties_left":
        Case(lambda s, v: torch.searchsorted(sorted_last(s), v),
             [S(3, 20, domain="int:0:6"), S(3, 15, domain="int:-1:7")], grad=False),
    "searchsorted_batched_ties_right":
        Case(lambda s, v: torch.searchsorted(sorted_last(s), v, right=True),
             [S(3, 20, domain="int:0:6"), S(3, 15, domain="int:-1:7")], grad=False),
    "unique_long_inverse": Case(lambda a: torch.unique(a, return_inverse=True)[1],
                                [S(300, domain="int:0:40")], grad=False),
    "unique_long_counts": Case(lambda a: torch.unique(a, return_counts=True)[1],
                               [S(300, domain="int:0:40")], grad=False),
    "unique_dim0_long_inverse": Case(lambda a: torch.unique(a, dim=0, return_inverse=True)[1],
                                     [S(40, 4, domain="int:0:2")], grad=False),
    "isin_long": Case(torch.isin, [S(100, domain="int:0:60"), S(40, domain="int:0:60")],
                      grad=False),
}
