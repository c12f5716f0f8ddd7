"""Reference cases for the reductions and softmax (tests/core/ops_reduce_test.cpp).

Ties are drawn from small integer domains (forward only: integer inputs have no gradient);
the tie-splitting gradients are checked by hand in ops_reduce_test.cpp. Index results
(argmax, max(dim).indices) use the "distinct" domain except where a case tests ties.
"""
import math

import torch

from op_case import Case, S

TIES = "int:0:3"
ZERO_MASK = torch.tensor([[1., 0, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0],
                          [1, 1, 1, 1, 1, 1]])

CASES = {
    # sum / mean
    "sum_all": Case(lambda a: a.sum(), [S(3, 4)]),
    "sum_dim": Case(lambda a: a.sum(1), [S(3, 4)]),
    "sum_neg_dim": Case(lambda a: a.sum(-1), [S(2, 3, 4)]),
    "sum_dims_keepdim": Case(lambda a: a.sum((0, 2), keepdim=True), [S(2, 3, 4)]),
    "sum_leading_dims": Case(lambda a: a.sum((0, 1)), [S(2, 3, 4)]),
    "sum_int": Case(lambda a: a.sum(0), [S(3, 4, domain="int:-5:5")], grad=False),
    "mean_all": Case(lambda a: a.mean(), [S(3, 4)]),
    "mean_dims": Case(lambda a: a.mean((0, 2)), [S(2, 3, 4)]),
    "mean_neg_dim_keepdim": Case(lambda a: a.mean(-2, keepdim=True), [S(2, 3, 4)]),
    # prod
    "prod_all": Case(lambda a: a.prod(), [S(2, 3)]),
    "prod_dim": Case(lambda a: a.prod(1), [S(3, 4)]),
    "prod_dim0_keepdim": Case(lambda a: a.prod(0, keepdim=True), [S(3, 2, 4)]),
    "prod_neg_dim": Case(lambda a: a.prod(-1), [S(2, 3, 4)]),
    "prod_int": Case(lambda a: a.prod(1), [S(3, 4, domain="int:-3:4")], grad=False),
    # max / min
    "max_all": Case(lambda a: a.max(), [S(3, 4)]),
    "min_all": Case(lambda a: a.min(), [S(3, 4)]),
    "max_all_ties": Case(lambda a: a.max(), [S(3, 4, domain=TIES)], grad=False),
    "max_dim_values": Case(lambda a: a.max(1).values, [S(3, 4)]),
    "max_dim_indices": Case(lambda a: a.max(1).indices, [S(3, 4, domain="distinct")], grad=False),
    "max_dim0_keepdim_values": Case(lambda a: a.max(0, keepdim=True).values, [S(3, 2, 4)]),
    "max_dim0_keepdim_indices":
        Case(lambda a: a.max(0, keepdim=True).indices, [S(3, 2, 4, domain="distinct")], grad=False),
    "max_dim_ties_values": Case(lambda a: a.max(1).values, [S(4, 5, domain=TIES)], grad=False),
    "max_dim_ties_indices": Case(lambda a: a.max(1).indices, [S(4, 5, domain=TIES)], grad=False),
    "min_neg_dim_values": Case(lambda a: a.min(-1).values, [S(2, 3, 4)]),
    "min_neg_dim_indices":
        Case(lambda a: a.min(-1).indices, [S(2, 3, 4, domain="distinct")], grad=False),
    "min_dim_ties_indices": Case(lambda a: a.min(0).indices, [S(5, 4, domain=TIES)], grad=False),
    # amax / amin
    "amax_all": Case(lambda a: torch.amax(a), [S(3, 4)]),
    "amax_dim": Case(lambda a: torch.amax(a, 1), [S(3, 4)]),
    "amax_dims_keepdim": Case(lambda a: torch.amax(a, (0, 2), keepdim=True), [S(2, 3, 4)]),
    "amax_ties": Case(lambda a: torch.amax(a, (1, 2)), [S(3, 2, 4, domain=TIES)], grad=False),
    "amin_dims": Case(lambda a: torch.amin(a, (-1, 0)), [S(2, 3, 4)]),
    "amin_ties": Case(lambda a: torch.amin(a, 0), [S(5, 3, domain=TIES)], grad=False),
    # argmax / argmin
    "argmax_all": Case(lambda a: torch.argmax(a), [S(3, 4, domain="distinct")], grad=False),
    "argmax_dim": Case(lambda a: torch.argmax(a, 1), [S(3, 4, domain="distinct")], grad=False),
    "argmax_neg_dim_keepdim":
        Case(lambda a: torch.argmax(a, -1, keepdim=True), [S(2, 3, 4, domain="distinct")],
             grad=False),
    "argmax_all_keepdim":
        Case(lambda a: torch.argmax(a, keepdim=True), [S(2, 3, domain="distinct")], grad=False),
    "argmin_dim0": Case(lambda a: torch.argmin(a, 0), [S(3, 2, 4, domain="distinct")], grad=False),
    "argmin_all": Case(lambda a: torch.argmin(a), [S(5, domain="distinct")], grad=False),
    # var / std
    "var_all": Case(lambda a: a.var(), [S(3, 4)]),
    "var_dim_correction0": Case(lambda a: torch.var(a, 1, correction=0), [S(3, 4)]),
    "var_dims_keepdim": Case(lambda a: torch.var(a, (0, 2), keepdim=True), [S(2, 3, 4)]),
    "var_neg_dim": Case(lambda a: torch.var(a, -1), [S(2, 3, 4)]),
    "std_all": Case(lambda a: a.std(), [S(3, 4)]),
    "std_dim_correction0": Case(lambda a: torch.std(a, 0, correction=0), [S(4, 3)]),
    "std_dims_keepdim": Case(lambda a: torch.std(a, (1, 2), keepdim=True), [S(2, 3, 4)]),
    # logsumexp
    "logsumexp_dim": Case(lambda a: torch.logsumexp(a, 1), [S(3, 4)]),
    "logsumexp_dims_keepdim": Case(lambda a: torch.logsumexp(a, (0, 2), keepdim=True), [S(2, 3, 4)]),
    "logsumexp_neg_dim": Case(lambda a: torch.logsumexp(a, -1), [S(2, 3, 4)]),
    "logsumexp_scaled": Case(lambda a: torch.logsumexp(a * 40, 1), [S(3, 5)]),
    # softmax / log_softmax
    "softmax_last": Case(lambda a: torch.softmax(a, 1), [S(4, 5)]),
    "softmax_dim0": Case(lambda a: torch.softmax(a, 0), [S(3, 4, 2)]),
    "softmax_middle": Case(lambda a: torch.softmax(a, -2), [S(2, 3, 4)]),
    "softmax_scaled": Case(lambda a: torch.softmax(a * 40, -1), [S(3, 6)]),
    "log_softmax_last": Case(lambda a: torch.log_softmax(a, 1), [S(4, 5)]),
    "log_softmax_dim0": Case(lambda a: torch.log_softmax(a, 0), [S(3, 4, 2)]),
    "log_softmax_middle": Case(lambda a: torch.log_softmax(a, -2), [S(2, 3, 4)]),
    "log_softmax_scaled": Case(lambda a: torch.log_softmax(a * 40, -1), [S(3, 6)]),
    # Rows longer than the kernels' 32 lanes and columns wider than their 64-wide tiles.
    "sum_long_rows": Case(lambda a: a.sum(1), [S(2, 75)]),
    "sum_wide_columns": Case(lambda a: a.sum(0), [S(3, 70)]),
    "prod_long_rows": Case(lambda a: a.prod(1), [S(2, 40, domain="positive")]),
    "amax_long_rows": Case(lambda a: torch.amax(a, 1), [S(2, 75)]),
    "max_long_rows_indices": Case(lambda a: a.max(1).indices, [S(2, 75, domain="distinct")], grad=False),
    "argmin_wide_columns": Case(lambda a: torch.argmin(a, 0), [S(3, 70, domain="distinct")], grad=False),
    "var_long_rows": Case(lambda a: torch.var(a, 1), [S(2, 75)]),
    "std_wide_columns": Case(lambda a: torch.std(a, 0), [S(3, 70)]),
    "logsumexp_long_rows": Case(lambda a: torch.logsumexp(a, 1), [S(2, 75)]),
    "logsumexp_wide_columns": Case(lambda a: torch.logsumexp(a, 0), [S(3, 70)]),
    "softmax_long_rows": Case(lambda a: torch.softmax(a, 1), [S(2, 75)]),
    "softmax_wide_columns": Case(lambda a: torch.softmax(a, 0), [S(3, 70)]),
    "log_softmax_long_rows": Case(lambda a: torch.log_softmax(a, 1), [S(2, 75)]),
    "log_softmax_wide_columns": Case(lambda a: torch.log_softmax(a, 0), [S(3, 70)]),
    # Norms and dot, appended so the cases above keep their random draws.
    "norm": Case(lambda a: a.norm(), [S(3, 4)]),
    "norm_dim_keepdim": Case(lambda a: torch.norm(a, 2, [1], True), [S(3, 4)]),
    "norm_p3_dims": Case(lambda a: torch.norm(a, 3, [0, 2]), [S(2, 3, 4)]),
    "norm_p1": Case(lambda a: torch.norm(a, 1, [1]), [S(3, 4)]),
    "norm_inf": Case(lambda a: torch.norm(a, float("inf"), [0]), [S(3, 4)]),
    "norm_zero_row": Case(lambda a: torch.norm(a * torch.tensor([[0.], [1.]]), 2, [1]), [S(2, 3)]),
    "dot": Case(lambda a, b: torch.dot(a, b), [S(5), S(5)]),
    # Running sums and sorting along one dim, appended so the cases above keep their draws.
    "cumsum_dim": Case(lambda a: torch.cumsum(a, 1), [S(3, 4)]),
    "cumsum_neg_dim": Case(lambda a: torch.cumsum(a, -2), [S(2, 3, 4)]),
    "cumsum_wide_columns": Case(lambda a: torch.cumsum(a, 0), [S(3, 70)]),
    "cumsum_long_rows": Case(lambda a: torch.cumsum(a, 1), [S(2, 75)]),
    "cumsum_scalar": Case(lambda a: torch.cumsum(a, 0), [S()]),
    "cumsum_int": Case(lambda a: torch.cumsum(a, 1), [S(3, 4, domain="int:-5:5")], grad=False),
    "sort_values": Case(lambda a: torch.sort(a, 1).values, [S(3, 5)]),
    "sort_indices": Case(lambda a: torch.sort(a, 1).indices, [S(3, 5, domain="distinct")], grad=False),
    "sort_descending_dim0_values":
        Case(lambda a: torch.sort(a, 0, descending=True).values, [S(4, 3, 2)]),
    "sort_descending_dim0_indices":
        Case(lambda a: torch.sort(a, 0, descending=True).indices, [S(4, 3, 2, domain="distinct")],
             grad=False),
    "sort_long_rows_values": Case(lambda a: torch.sort(a, -1).values, [S(2, 75)]),
    "sort_ties_indices":
        Case(lambda a: torch.sort(a * 0.5, dim=1, stable=True).indices, [S(4, 6, domain=TIES)],
             grad=False),
    "sort_ties_descending_indices":
        Case(lambda a: torch.sort(a * 0.5, dim=0, descending=True, stable=True).indices,
             [S(6, 4, domain=TIES)], grad=False),
    "argsort": Case(lambda a: torch.argsort(a, -1), [S(2, 3, 4, domain="distinct")], grad=False),
    "topk_values": Case(lambda a: torch.topk(a, 2, 1).values, [S(3, 5)]),
    "topk_indices": Case(lambda a: torch.topk(a, 2, 1).indices, [S(3, 5, domain="distinct")], grad=False),
    "topk_smallest_dim0_values": Case(lambda a: torch.topk(a, 3, 0, largest=False).values, [S(5, 4)]),
    "topk_smallest_dim0_indices":
        Case(lambda a: torch.topk(a, 3, 0, largest=False).indices, [S(5, 4, domain="distinct")],
             grad=False),
    # Running products (appended so the cases above keep their draws). ZERO_MASK puts two zeros
    # in the first row, one first in the second, one last in the third and none in the fourth.
    "cumprod_dim": Case(lambda a: torch.cumprod(a, 1), [S(3, 4)]),
    "cumprod_neg_dim": Case(lambda a: torch.cumprod(a, -2), [S(2, 3, 4)]),
    "cumprod_wide_columns": Case(lambda a: torch.cumprod(a, 0), [S(3, 70)]),
    "cumprod_long_rows": Case(lambda a: torch.cumprod(a, 1), [S(2, 75, domain="positive")]),
    "cumprod_masked_zeros": Case(lambda a: torch.cumprod(a * ZERO_MASK, 1), [S(4, 6)]),
    "cumprod_scalar": Case(lambda a: torch.cumprod(a, 0), [S()]),
    "cumprod_int": Case(lambda a: torch.cumprod(a, 1), [S(3, 4, domain="int:-5:5")], grad=False),
    "logcumsumexp": Case(lambda a: torch.logcumsumexp(a * 30, 1), [S(3, 5)]),
    "logcumsumexp_columns": Case(lambda a: torch.logcumsumexp(a, 0), [S(4, 70)]),
    "cummax": Case(lambda a: torch.cummax(a, 1).values, [S(3, 6, domain="distinct")]),
    "cummin_dim0": Case(lambda a: torch.cummin(a, 0).values, [S(5, 3, domain="distinct")]),
    "cummax_indices_ties": Case(lambda a: torch.cummax(a, 1).indices,
                                [S(3, 6, domain="int:0:3")], grad=False),
    "cummin_int": Case(lambda a: torch.cummin(a, 1).values, [S(3, 6, domain="int:-4:4")],
                       grad=False),
    # Reductions composed of reductions (appended: the draws above stay the same).
    "nansum": Case(lambda a: torch.nansum(torch.where(a.abs() < 0.3, math.nan, a)), [S(4, 5)]),
    "nansum_dim": Case(lambda a: torch.nansum(torch.where(a.abs() < 0.3, math.nan, a), 1),
                       [S(4, 5)]),
    "nanmean_dims_keepdim": Case(
        lambda a: torch.nanmean(torch.where(a.abs() < 0.3, math.nan, a), (0, 2), keepdim=True),
        [S(3, 2, 4)]),
    "var_mean_var": Case(lambda a: torch.var_mean(a, 1)[0], [S(3, 5)]),
    "var_mean_mean": Case(lambda a: torch.var_mean(a, 1)[1], [S(3, 5)]),
    "std_mean_std": Case(lambda a: torch.std_mean(a, (0, 1), correction=0, keepdim=True)[0],
                         [S(2, 3, 2)]),
    "std_mean_mean": Case(lambda a: torch.std_mean(a, (0, 1), correction=0, keepdim=True)[1],
                          [S(2, 3, 2)]),
    "aminmax_min": Case(lambda a: torch.aminmax(a, dim=1).min, [S(3, 5, domain="distinct")]),
    "aminmax_max": Case(lambda a: torch.aminmax(a).max, [S(3, 5, domain="distinct")]),
    "aminmax_ties": Case(lambda a: torch.aminmax(a, dim=0, keepdim=True).max,
                         [S(4, 3, domain="int:0:2")], grad=False),
}
