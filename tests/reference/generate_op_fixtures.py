#!/usr/bin/env python3
"""Writes PyTorch reference values for accel's op tests (tests/reference/fixtures/ops_*.json).

Each case draws inputs with a seeded generator, runs the op in float64 PyTorch, then
backpropagates a random upstream gradient; the fixture stores inputs, output, upstream
gradient and input gradients, so the C++ tests need neither Python nor torch.
Cases live in cases_<area>.py beside this file, one module per op family, each defining
CASES = {name: Case(...)} with the same names as the C++ table in tests/core/ops_<area>_test.cpp.

Run by hand where torch is installed:  python3 tests/reference/generate_op_fixtures.py
"""
import importlib
import json
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from op_case import draw, encode  # noqa: E402

AREAS = sorted(p.stem[len("cases_"):] for p in HERE.glob("cases_*.py"))


def run_case(name, case, generator):
    inputs = [draw(spec, generator) for spec in case.inputs]
    leaves = [t.clone().requires_grad_(t.is_floating_point() and case.grad) for t in inputs]
    out = case.fn(*leaves)
    entry = {"inputs": [encode(t) for t in inputs], "output": encode(out.detach())}
    if case.grad and out.is_floating_point():
        grad_output = torch.randn(out.shape, dtype=torch.float64, generator=generator)
        diff = [t for t in leaves if t.requires_grad]
        grads = torch.autograd.grad(out, diff, grad_output, allow_unused=True)
        it = iter(grads)
        entry["grad_output"] = encode(grad_output)
        entry["grads"] = [
            (lambda g: None if g is None else encode(g))(next(it)) if t.requires_grad else None
            for t in leaves
        ]
    return entry


def main():
    torch.set_default_dtype(torch.float64)
    for area in AREAS:
        module = importlib.import_module(f"cases_{area}")
        generator = torch.Generator().manual_seed(1234)
        fixture = {name: run_case(name, case, generator) for name, case in module.CASES.items()}
        path = HERE / "fixtures" / f"ops_{area}.json"
        path.write_text(json.dumps(fixture, indent=None, separators=(",", ":")) + "\n")
        print(f"{path.relative_to(HERE.parent.parent)}: {len(fixture)} cases")


if __name__ == "__main__":
    main()
