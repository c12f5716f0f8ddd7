"""Reference cases for the order statistics (tests/core/ops_order_statistics_test.cpp).

NaN enters through constant masks added to the input (0 or NaN). Cases whose output holds NaN, and
index and integer cases, are forward only; ties are drawn from small integer domains, forward only
too (a finite difference across a tie is meaningless): their gradients are checked by hand in
ops_order_statistics_test.cpp. kthvalue's indices use the "distinct" domain: among equal values
PyTorch's CPU quickselect may name another element than the stable sort's. For the same reason
no case takes nanmedian's index in a row of NaN only (PyTorch's comes from std::nth_element
over elements that all compare equal).
"""
import torch

from op_case import Case, S

nan = float("nan")
TIES = "int:0:3"
# Some NaN in rows 0 and 2, none in row 1: every row keeps numbers.
SOME_NAN = torch.tensor([[0., nan, 0, 0, nan], [0, 0, 0, 0, 0], [nan, 0, nan, 0, 0]])
# Row 1 is all NaN.
ALL_NAN_ROW = torch.tensor([[0., nan, 0, 0], [nan, nan, nan, nan], [0, 0, 0, 0]])
Q3 = S(3, domain="grid:0.1:0.35")  # 0.1, 0.45, 0.8
HALF_RANKS = S(4, domain="grid:0.125:0.25")  # of 5 elements: ranks 0.5, 1.5, 2.5, 3.5

CASES = {
    # median
    "median_all": Case(lambda a: a.median(), [S(3, 5)]),
    "median_all_even": Case(lambda a: a.median(), [S(2, 3)]),
    "median_all_int": Case(lambda a: a.median(), [S(4, 5, domain="int:-9:9")], grad=False),
    "median_dim_values": Case(lambda a: a.median(1).values, [S(3, 5)]),
    "median_dim_even_values": Case(lambda a: a.median(-1).values, [S(3, 4)]),
    "median_dim_indices": Case(lambda a: a.median(1).indices, [S(3, 5, domain="distinct")],
                               grad=False),
    "median_dim0_keepdim_values": Case(lambda a: a.median(0, keepdim=True).values, [S(4, 3, 2)]),
    "median_dim0_keepdim_indices":
        Case(lambda a: a.median(0, keepdim=True).indices, [S(4, 3, 2, domain="distinct")],
             grad=False),
    "median_ties_values": Case(lambda a: a.median(1).values, [S(4, 6, domain=TIES)], grad=False),
    "median_ties_indices": Case(lambda a: a.median(1).indices, [S(4, 6, domain=TIES)],
                                grad=False),
    "median_nan_values": Case(lambda a: (a + SOME_NAN).median(1).values, [S(3, 5)], grad=False),
    "median_nan_indices": Case(lambda a: (a + SOME_NAN).median(1).indices, [S(3, 5)], grad=False),
    "median_all_nan": Case(lambda a: (a + SOME_NAN).median(), [S(3, 5)], grad=False),
    # nanmedian
    "nanmedian_all": Case(lambda a: (a + SOME_NAN).nanmedian(), [S(3, 5)]),
    "nanmedian_dim_values": Case(lambda a: (a + SOME_NAN).nanmedian(1).values, [S(3, 5)]),
    "nanmedian_dim_indices":
        Case(lambda a: (a + SOME_NAN).nanmedian(1).indices, [S(3, 5, domain="distinct")],
             grad=False),
    "nanmedian_all_nan_row_values":
        Case(lambda a: (a + ALL_NAN_ROW).nanmedian(1).values, [S(3, 4)], grad=False),
    "nanmedian_keepdim_values":
        Case(lambda a: (a + SOME_NAN).t().nanmedian(0, keepdim=True).values, [S(3, 5)]),
    # kthvalue
    "kthvalue_values": Case(lambda a: a.kthvalue(2, 1).values, [S(3, 5)]),
    "kthvalue_indices": Case(lambda a: a.kthvalue(2, 1).indices, [S(3, 5, domain="distinct")],
                             grad=False),
    "kthvalue_last_dim_default": Case(lambda a: a.kthvalue(4).values, [S(2, 3, 4)]),
    "kthvalue_dim0_keepdim_values":
        Case(lambda a: a.kthvalue(1, 0, keepdim=True).values, [S(4, 3)]),
    "kthvalue_dim0_keepdim_indices":
        Case(lambda a: a.kthvalue(3, 0, keepdim=True).indices, [S(4, 3, domain="distinct")],
             grad=False),
    "kthvalue_int": Case(lambda a: a.kthvalue(3, 1).values, [S(3, 6, domain=TIES)], grad=False),
    "kthvalue_nan": Case(lambda a: (a + SOME_NAN).kthvalue(4, 1).values, [S(3, 5)], grad=False),
    # mode
    "mode_values": Case(lambda a: a.mode(1).values, [S(4, 7, domain=TIES)], grad=False),
    "mode_indices": Case(lambda a: a.mode(1).indices, [S(4, 7, domain=TIES)], grad=False),
    "mode_dim0_keepdim_values":
        Case(lambda a: a.mode(0, keepdim=True).values, [S(6, 3, domain="int:0:4")], grad=False),
    "mode_dim0_keepdim_indices":
        Case(lambda a: a.mode(0, keepdim=True).indices, [S(6, 3, domain="int:0:4")], grad=False),
    "mode_float_ties_indices":
        Case(lambda a: (a * 0.5).mode().indices, [S(3, 8, domain=TIES)], grad=False),
    "mode_distinct_values": Case(lambda a: a.mode(-1).values, [S(3, 4)]),
    # msort
    "msort": Case(lambda a: a.msort(), [S(4, 3)]),
    "msort_int": Case(lambda a: torch.msort(a), [S(5, 2, domain="int:-5:5")], grad=False),
    # quantile
    "quantile_all": Case(lambda a: a.quantile(0.3), [S(3, 4)]),
    "quantile_dim": Case(lambda a: a.quantile(0.75, 1), [S(3, 5)]),
    "quantile_dim0_keepdim": Case(lambda a: a.quantile(0.5, 0, keepdim=True), [S(4, 3)]),
    "quantile_all_keepdim": Case(lambda a: a.quantile(0.6, keepdim=True), [S(2, 3)]),
    "quantile_q0": Case(lambda a: a.quantile(0.0, -1), [S(3, 4)]),
    "quantile_q1": Case(lambda a: a.quantile(1.0, -1), [S(3, 4)]),
    "quantile_q_tensor": Case(lambda a, q: a.quantile(q), [S(3, 4), Q3]),
    "quantile_q_tensor_dim_keepdim":
        Case(lambda a, q: torch.quantile(a, q, 1, keepdim=True), [S(2, 5, 3), Q3]),
    "quantile_q_0dim": Case(lambda a, q: a.quantile(q, 0), [S(5, 2), S(domain="grid:0.4:0")]),
    "quantile_lower": Case(lambda a, q: a.quantile(q, 1, interpolation="lower"),
                           [S(2, 5), HALF_RANKS]),
    "quantile_higher": Case(lambda a, q: a.quantile(q, 1, interpolation="higher"),
                            [S(2, 5), HALF_RANKS]),
    "quantile_midpoint": Case(lambda a, q: a.quantile(q, 1, interpolation="midpoint"),
                              [S(2, 5), HALF_RANKS]),
    "quantile_nearest": Case(lambda a, q: a.quantile(q, 1, interpolation="nearest"),
                             [S(2, 5), HALF_RANKS]),
    "quantile_nan": Case(lambda a: (a + SOME_NAN).quantile(0.4, 1), [S(3, 5)], grad=False),
    # nanquantile
    "nanquantile_dim": Case(lambda a, q: (a + SOME_NAN).nanquantile(q, 1), [S(3, 5), Q3]),
    "nanquantile_all": Case(lambda a: (a + SOME_NAN).nanquantile(0.35), [S(3, 5)]),
    "nanquantile_all_nan_row":
        Case(lambda a: (a + ALL_NAN_ROW).nanquantile(0.5, 1), [S(3, 4)], grad=False),
    "nanquantile_nearest":
        Case(lambda a: (a + SOME_NAN).nanquantile(0.625, 1, interpolation="nearest"), [S(3, 5)]),
}
