"""Reference cases for the functional layers linear and leaky_relu (tests/nn/functional_test.cpp)."""
import torch.nn.functional as F

from op_case import Case, S

CASES = {
    "linear": Case(F.linear, [S(4, 3), S(5, 3), S(5)]),
    "linear_no_bias": Case(F.linear, [S(4, 3), S(5, 3)]),
    "linear_batched": Case(F.linear, [S(2, 4, 3), S(5, 3), S(5)]),
    "linear_vector": Case(F.linear, [S(3), S(5, 3), S(5)]),
    "leaky_relu": Case(F.leaky_relu, [S(3, 4)]),
    "leaky_relu_slope": Case(lambda x: F.leaky_relu(x, 0.2), [S(3, 4)]),
}
