"""Reference cases for the element-wise unary ops and clamp (tests/core/ops_unary_test.cpp)."""
import torch
import torch.nn.functional as F

from op_case import Case, S

CASES = {
    "exp": Case(torch.exp, [S(2, 3)]),
    "exp_strided": Case(lambda a: torch.exp(a.t()), [S(3, 4)]),
    "log": Case(torch.log, [S(2, 3, domain="positive")]),
    "sqrt": Case(torch.sqrt, [S(5, domain="positive")]),
    "rsqrt": Case(torch.rsqrt, [S(5, domain="positive")]),
    "abs": Case(torch.abs, [S(2, 3)]),
    "sin": Case(torch.sin, [S(2, 3)]),
    "cos": Case(torch.cos, [S(2, 3)]),
    "tanh": Case(torch.tanh, [S(2, 3)]),
    "sigmoid": Case(torch.sigmoid, [S(2, 3)]),
    "relu": Case(torch.relu, [S(3, 4)]),
    "gelu": Case(F.gelu, [S(3, 4)]),
    "gelu_tanh": Case(lambda a: F.gelu(a, approximate="tanh"), [S(3, 4)]),
    "silu": Case(F.silu, [S(3, 4)]),
    "clamp_min": Case(lambda a: torch.clamp(a, min=-0.5), [S(3, 4)]),
    "clamp_max": Case(lambda a: torch.clamp(a, max=0.25), [S(3, 4)]),
    "clamp_both": Case(lambda a: torch.clamp(a, min=-0.5, max=0.5), [S(3, 4)]),
    # Integer inputs: exp gives the default float type (float32 outside this generator,
    # which sets float64 as the default); abs and relu keep int64.
    "exp_int64": Case(lambda a: torch.exp(a.float()), [S(6, domain="int:-3:4")], grad=False),
    "abs_int64": Case(torch.abs, [S(6, domain="int:-3:4")], grad=False),
    "relu_int64": Case(torch.relu, [S(6, domain="int:-3:4")], grad=False),
    "clamp_int64": Case(lambda a: torch.clamp(a, min=-1, max=2), [S(6, domain="int:-3:4")],
                        grad=False),
    # Appended so the cases above keep their random draws.
    "log1p": Case(lambda a: torch.log1p(a), [S(3, 4, domain="positive")]),
    "expm1": Case(lambda a: torch.expm1(a), [S(3, 4)]),
    "erf": Case(lambda a: torch.erf(a), [S(3, 4)]),
    "floor": Case(lambda a: torch.floor(a * 3), [S(3, 4)]),
    "ceil": Case(lambda a: torch.ceil(a * 3), [S(3, 4)]),
    "round": Case(lambda a: torch.round(a * 3), [S(3, 4)]),
    "trunc": Case(lambda a: torch.trunc(a * 3), [S(3, 4)]),
    "sign": Case(lambda a: torch.sign(a), [S(3, 4)]),
    "tan": Case(torch.tan, [S(3, 4, domain="unit")]),
    "asin": Case(torch.asin, [S(3, 4, domain="unit")]),
    "acos": Case(torch.acos, [S(3, 4, domain="unit")]),
    "atan": Case(torch.atan, [S(3, 4)]),
    "sinh": Case(torch.sinh, [S(3, 4)]),
    "cosh": Case(torch.cosh, [S(3, 4)]),
    "asinh": Case(torch.asinh, [S(3, 4)]),
    "acosh": Case(lambda a: torch.acosh(a + 1.5), [S(3, 4, domain="positive")]),
    "atanh": Case(torch.atanh, [S(3, 4, domain="unit")]),
    "log2": Case(torch.log2, [S(3, 4, domain="positive")]),
    "log10": Case(torch.log10, [S(3, 4, domain="positive")]),
    "exp2": Case(torch.exp2, [S(3, 4)]),
    "erfc": Case(torch.erfc, [S(3, 4)]),
}
