"""Reference cases for the element-wise binary ops (tests/core/ops_binary_test.cpp)."""
import torch

from op_case import Case, S

CASES = {
    "add": Case(lambda a, b: a + b, [S(2, 3), S(2, 3)]),
    "add_broadcast": Case(lambda a, b: torch.add(a, b, alpha=0.5), [S(2, 1, 3), S(4, 1)]),
    "add_scalar": Case(lambda a: a + 2.5, [S(3, 2)]),
    "sub": Case(lambda a, b: a - b, [S(3, 4), S(4)]),
    "sub_alpha": Case(lambda a, b: torch.sub(a, b, alpha=3), [S(2, 2), S(2, 2)]),
    "rsub_scalar": Case(lambda a: 1.5 - a, [S(5)]),
    "mul": Case(lambda a, b: a * b, [S(2, 3), S(3)]),
    "mul_scalar": Case(lambda a: a * -1.25, [S(4)]),
    "div": Case(lambda a, b: a / b, [S(2, 3), S(2, 3, domain="positive")]),
    "div_scalar": Case(lambda a: a / 4.0, [S(3)]),
    "rdiv_scalar": Case(lambda a: 2.0 / a, [S(3, domain="positive")]),
    "pow": Case(lambda a, b: torch.pow(a, b), [S(2, 3, domain="positive"), S(2, 3)]),
    "pow_scalar": Case(lambda a: a ** 3, [S(4)]),
    "pow_fractional": Case(lambda a: a ** 0.5, [S(4, domain="positive")]),
    "rpow_scalar": Case(lambda a: torch.pow(2.0, a), [S(4)]),
    "maximum": Case(torch.maximum, [S(3, 2), S(2)]),
    "minimum": Case(torch.minimum, [S(3, 2), S(3, 2)]),
    "neg": Case(lambda a: -a, [S(2, 2)]),
    "eq": Case(lambda a, b: a == b, [S(6, domain="int:0:3"), S(6, domain="int:0:3")], grad=False),
    "lt": Case(lambda a, b: a < b, [S(2, 3), S(3)], grad=False),
    "ge_scalar": Case(lambda a: a >= 0.0, [S(5)], grad=False),
}
