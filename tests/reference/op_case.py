"""Case description and tensor encoding shared by the op fixture generator's case modules."""
import dataclasses
import math
from typing import Callable

import torch


@dataclasses.dataclass
class Spec:
    """One input: its shape and the domain its values are drawn from.

    domain: "normal" (standard normal), "positive" (uniform in [0.5, 2]), "unit" (uniform in
    [-0.9, 0.9]), "distinct" (a shuffled grid: no ties, for max/sort-like ops), "int:LO:HI"
    (int64 uniform in [LO, HI)), "bool", "grid:START:STEP" (START, START + STEP, ... in
    row-major order: exact values that land on an op's kinks; draws nothing).
    """
    shape: tuple
    domain: str = "normal"


@dataclasses.dataclass
class Case:
    fn: Callable
    inputs: list
    grad: bool = True  # False for ops without gradients (comparisons, argmax)


def S(*shape, domain="normal"):
    return Spec(tuple(shape), domain)


def draw(spec, g):
    shape = spec.shape
    d = spec.domain
    if d == "normal":
        return torch.randn(shape, dtype=torch.float64, generator=g)
    if d == "positive":
        return 0.5 + 1.5 * torch.rand(shape, dtype=torch.float64, generator=g)
    if d == "unit":
        return -0.9 + 1.8 * torch.rand(shape, dtype=torch.float64, generator=g)
    if d == "distinct":
        n = 1
        for s in shape:
            n *= s
        values = torch.randperm(n, generator=g).to(torch.float64) * 0.37 - n * 0.15
        return values.reshape(shape)
    if d.startswith("int:"):
        _, lo, hi = d.split(":")
        return torch.randint(int(lo), int(hi), shape, generator=g, dtype=torch.int64)
    if d.startswith("grid:"):
        _, start, step = d.split(":")
        n = 1
        for s in shape:
            n *= s
        return (float(start) + float(step) * torch.arange(n, dtype=torch.float64)).reshape(shape)
    if d == "bool":
        return torch.rand(shape, generator=g) > 0.5
    raise ValueError(f"unknown domain {d}")


def encode(t):
    t = t.detach().contiguous()
    dtype = str(t.dtype).replace("torch.", "")
    values = t.reshape(-1).tolist()
    if t.dtype == torch.bool:
        values = [int(v) for v in values]
    elif t.is_floating_point():
        # JSON has no NaN or infinity: they are written as strings.
        values = [v if math.isfinite(v) else str(v) for v in values]
    return {"shape": list(t.shape), "dtype": dtype, "data": values}
