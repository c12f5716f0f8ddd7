"""The activation functions at their kinks (tests/nn/activations_test.cpp): inputs on a grid
from -7 to 7 in steps of 0.5 hit every switch point (0, +-0.5, +-1, +-3, 6, ...), where
PyTorch's one-sided gradient conventions decide the result. No finite differences there."""
import torch.nn.functional as F

from cases_nn_activations import ExactHardsigmoid
from op_case import Case, S

GRID = S(29, domain="grid:-7:0.5")

CASES = {
    "elu": Case(F.elu, [GRID]),
    "selu": Case(F.selu, [GRID]),
    "celu": Case(lambda x: F.celu(x, 0.5), [GRID]),
    "softplus": Case(lambda x: F.softplus(x, 2.0, 1.0), [GRID]),
    "hardtanh": Case(F.hardtanh, [GRID]),
    "hardtanh_bounds": Case(lambda x: F.hardtanh(x, -2.0, 0.5), [GRID]),
    "relu6": Case(F.relu6, [GRID]),
    "hardsigmoid": Case(ExactHardsigmoid.apply, [GRID]),
    "hardswish": Case(F.hardswish, [GRID]),
    "logsigmoid": Case(F.logsigmoid, [GRID]),
    "softshrink": Case(F.softshrink, [GRID]),
    "hardshrink": Case(F.hardshrink, [GRID]),
    "threshold": Case(lambda x: F.threshold(x, 0.5, -2.0), [GRID]),
    "leaky_relu": Case(F.leaky_relu, [GRID]),
    "softsign": Case(F.softsign, [GRID]),
    "prelu": Case(lambda x, w: F.prelu(x.reshape(1, 29), w), [GRID, S(1)]),
    "rrelu_eval": Case(lambda x: F.rrelu(x, training=False), [GRID]),
}
