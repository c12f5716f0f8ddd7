"""Reference cases for the nn layers (tests/nn/layers_test.cpp): each layer's forward with its
parameters passed as inputs, so the fixture holds the weight gradients too."""
import torch
import torch.nn.functional as F

from op_case import Case, S

CASES = {
    "linear": Case(lambda x, w, b: F.linear(x, w, b), [S(4, 3), S(5, 3), S(5)]),
    "linear_no_bias": Case(lambda x, w: F.linear(x, w), [S(2, 3), S(4, 3)]),
    "linear_batched": Case(lambda x, w, b: F.linear(x, w, b), [S(2, 3, 4), S(2, 4), S(2)]),
    "leaky_relu": Case(lambda x: F.leaky_relu(x, 0.2), [S(3, 4)]),
    "gelu_tanh": Case(lambda x: F.gelu(x, approximate="tanh"), [S(3, 4)]),
    "softmax": Case(lambda x: F.softmax(x, 1), [S(2, 5)]),
    "log_softmax": Case(lambda x: F.log_softmax(x, 0), [S(3, 2)]),
    "flatten": Case(lambda x: torch.flatten(x, 1), [S(2, 3, 2)]),
    "embedding": Case(lambda i, w: F.embedding(i, w), [S(2, 3, domain="int:0:5"), S(5, 4)]),
    "sequential_mlp": Case(lambda x, w1, b1, w2, b2: F.linear(F.relu(F.linear(x, w1, b1)), w2, b2),
                           [S(3, 4), S(5, 4), S(5), S(2, 5), S(2)]),
}
