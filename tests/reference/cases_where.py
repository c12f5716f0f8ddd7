"""Reference cases for where and masked_fill (tests/core/ops_where_test.cpp)."""
import torch

from op_case import Case, S

CASES = {
    "where": Case(torch.where, [S(2, 3, domain="bool"), S(2, 3), S(2, 3)]),
    "where_broadcast": Case(torch.where, [S(3, 1, domain="bool"), S(1, 4), S(2, 1, 1)]),
    "where_scalar_other": Case(lambda c, a: torch.where(c, a, 0.5),
                               [S(2, 3, domain="bool"), S(3)]),
    "where_scalar_self": Case(lambda c, b: torch.where(c, -1.5, b),
                              [S(2, 3, domain="bool"), S(2, 3)]),
    "where_int64": Case(torch.where, [S(5, domain="bool"), S(5, domain="int:-5:5"),
                                      S(5, domain="int:-5:5")], grad=False),
    "masked_fill": Case(lambda a, m: a.masked_fill(m, -2.0), [S(2, 3), S(2, 3, domain="bool")]),
    "masked_fill_broadcast_mask": Case(lambda a, m: a.masked_fill(m, 3.0),
                                       [S(2, 3, 4), S(3, 1, domain="bool")]),
    "masked_fill_broadcast_self": Case(lambda a, m: a.masked_fill(m, 0.0),
                                       [S(3), S(2, 3, domain="bool")]),
}
