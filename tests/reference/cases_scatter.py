"""Reference cases for scatter and scatter_reduce (tests/core/ops_scatter_test.cpp). A fixed
index without repeats where a repeat would leave the gradient of the elements that lose
undefined."""
import torch

from op_case import Case, S

SCATTER_INDEX = torch.tensor([[2, 0, 3], [1, 3, 0], [3, 2, 1]])
# Zeros in self and src, one alone in its group and two together.
PROD_INDEX = torch.tensor([[0, 0, 1, 1, 2], [3, 3, 3, 2, 2]])
PROD_SELF_MASK = torch.tensor([[1.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 1.0]])
PROD_SRC_MASK = torch.tensor([[1.0, 0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0, 1.0]])


CASES = {
    "scatter_src": Case(lambda a, s: a.scatter(1, SCATTER_INDEX, s), [S(3, 4), S(3, 3)]),
    "scatter_value": Case(lambda a: a.scatter(0, torch.tensor([[1, 0, 2]]), 0.5), [S(3, 3)]),
    "scatter_reduce_sum": Case(lambda a, i, s: a.scatter_reduce(1, i, s, "sum"),
                               [S(3, 4), S(3, 5, domain="int:0:4"), S(3, 5)]),
    "scatter_reduce_sum_exclude": Case(
        lambda a, i, s: a.scatter_reduce(1, i, s, "sum", include_self=False),
        [S(3, 4), S(3, 5, domain="int:0:4"), S(3, 5)]),
    "scatter_reduce_mean": Case(lambda a, i, s: a.scatter_reduce(0, i, s, "mean"),
                                [S(4, 3), S(6, 3, domain="int:0:4"), S(6, 3)]),
    "scatter_reduce_mean_exclude": Case(
        lambda a, i, s: a.scatter_reduce(0, i, s, "mean", include_self=False),
        [S(4, 3), S(6, 3, domain="int:0:4"), S(6, 3)]),
    "scatter_reduce_prod": Case(lambda a, i, s: a.scatter_reduce(1, i, s, "prod"),
                                [S(3, 4), S(3, 5, domain="int:0:4"), S(3, 5)]),
    "scatter_reduce_prod_exclude_partial": Case(
        lambda a, i, s: a.scatter_reduce(1, i, s, "prod", include_self=False),
        [S(3, 4), S(2, 3, domain="int:0:4"), S(2, 3)]),
    "scatter_reduce_prod_zeros": Case(
        lambda a, s: (a * PROD_SELF_MASK).scatter_reduce(1, PROD_INDEX, s * PROD_SRC_MASK, "prod"),
        [S(2, 4), S(2, 5)]),
    "scatter_reduce_amax": Case(lambda a, i, s: a.scatter_reduce(1, i, s, "amax"),
                                [S(3, 4), S(3, 5, domain="int:0:4"), S(3, 5)]),
    "scatter_reduce_amin_exclude": Case(
        lambda a, i, s: a.scatter_reduce(0, i, s, "amin", include_self=False),
        [S(4, 3), S(6, 3, domain="int:0:4"), S(6, 3)]),
    "scatter_reduce_mean_int64": Case(
        lambda a, i, s: a.scatter_reduce(0, i, s, "mean"),
        [S(4, 3, domain="int:-5:6"), S(5, 3, domain="int:0:4"), S(5, 3, domain="int:-5:6")],
        grad=False),
}
