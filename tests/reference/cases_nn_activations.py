"""Reference cases for the activation functions (tests/nn/activations_test.cpp). Inputs scaled
inside a case (x * 10) reach the ranges where a formula switches (softplus's threshold, large
negative inputs of log_sigmoid and mish)."""
import torch
import torch.nn.functional as F

from op_case import Case, S


class ExactHardsigmoid(torch.autograd.Function):
    """F.hardsigmoid with the gradient 1/6 in float64: PyTorch's float64 backward multiplies by
    the float32 constant 1/6 (0.16666667163...), accel by the double one."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return F.hardsigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * ((x > -3) & (x < 3)) / 6


def exact_celu(x, alpha):
    """F.celu's values with the gradient of alpha * (exp(x / alpha) - 1) in float64: PyTorch's
    float64 celu backward rounds 1 / alpha through float32, accel's does not."""
    return torch.where(x > 0, x, alpha * torch.expm1(x / alpha))


CASES = {
    "elu": Case(lambda x: F.elu(x * 3), [S(3, 4)]),
    "elu_alpha": Case(lambda x: F.elu(x, 0.4), [S(3, 4)]),
    "selu": Case(lambda x: F.selu(x * 3), [S(3, 4)]),
    "celu": Case(lambda x: exact_celu(x * 3, 0.7), [S(3, 4)]),
    "softplus": Case(lambda x: F.softplus(x * 15), [S(3, 4)]),
    "softplus_beta_threshold": Case(lambda x: F.softplus(x, 2.0, 1.5), [S(3, 4)]),
    "hardtanh": Case(lambda x: F.hardtanh(x * 2), [S(3, 4)]),
    "hardtanh_bounds": Case(lambda x: F.hardtanh(x * 2, -0.5, 2.0), [S(3, 4)]),
    "relu6": Case(lambda x: F.relu6(x * 5), [S(3, 4)]),
    "hardsigmoid": Case(lambda x: ExactHardsigmoid.apply(x * 3), [S(3, 4)]),
    "hardswish": Case(lambda x: F.hardswish(x * 3), [S(3, 4)]),
    "mish": Case(lambda x: F.mish(x * 10), [S(3, 4)]),
    "logsigmoid": Case(lambda x: F.logsigmoid(x * 10), [S(3, 4)]),
    "softshrink": Case(lambda x: F.softshrink(x, 0.7), [S(3, 4)]),
    "hardshrink": Case(lambda x: F.hardshrink(x), [S(3, 4)]),
    "threshold": Case(lambda x: F.threshold(x, 0.3, -2.0), [S(3, 4)]),
    "leaky_relu": Case(lambda x: F.leaky_relu(x, 0.2), [S(3, 4)]),
    "softsign": Case(lambda x: F.softsign(x * 3), [S(3, 4)]),
    "tanhshrink": Case(lambda x: F.tanhshrink(x * 2), [S(3, 4)]),
    "prelu_shared": Case(F.prelu, [S(2, 3, 4), S(1)]),
    "prelu_channels": Case(F.prelu, [S(2, 3, 4), S(3)]),
    "prelu_channels_2d": Case(F.prelu, [S(2, 3, 2, 2), S(3)]),
    "rrelu_eval": Case(lambda x: F.rrelu(x, 0.1, 0.3, training=False), [S(3, 4)]),
    "glu": Case(F.glu, [S(3, 4)]),
    "glu_dim": Case(lambda x: F.glu(x, 0), [S(4, 3)]),
    "softmin": Case(lambda x: F.softmin(x, 1), [S(3, 4)]),
    "softmax2d": Case(lambda x: torch.nn.Softmax2d()(x), [S(2, 3, 2, 2)]),
    "elu_3d_strided": Case(lambda x: F.elu(x.transpose(0, 2)), [S(2, 3, 4)]),
}
