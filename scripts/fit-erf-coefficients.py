#!/usr/bin/env python3
"""Fits the coefficients of the CPU's float erf (accel/kernels/cpu/vector_math.h) and prints them
with the largest error found, in ulp, of the float evaluation over sampled floats.

  erf(x) = x + x * P(x^2)                          for |x| < 0.921875, P fitting erf(x)/x - 1
  erf(x) = 1 - exp(-x^2) * Q(1 / (1 + x/2))        above (x clamped to 4), Q fitting erfc(x) e^(x^2)

Each polynomial is a weighted least-squares fit of the error relative to erf(x)/x or
erfc(x) e^(x^2), reweighted towards its largest errors (Lawson's algorithm, which converges on the minimax fit). Needs numpy:
  python3 scripts/fit-erf-coefficients.py
"""
import math

import numpy as np

SWITCH = 0.921875
CLAMP = 4.0


def minimax(f, lo, hi, degree, variable, scale, iterations=30):
    """The polynomial in variable(x) closest to f on [lo, hi], error relative to scale(x)."""
    x = np.cos(np.linspace(0, np.pi, 4000)) * (hi - lo) / 2 + (hi + lo) / 2
    basis = np.vander(variable(x), degree + 1, increasing=True) / scale(x)[:, None]
    target = f(x) / scale(x)
    weights = np.ones_like(x)
    for _ in range(iterations):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(basis * root[:, None], target * root, rcond=None)
        error = np.abs(basis @ coefficients - target)
        weights = weights * error / np.sum(weights * error)
    return coefficients, error.max()


erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)
small, small_error = minimax(lambda x: erf(x) / x - 1, 1e-6, SWITCH, 5, lambda x: x * x,
                             lambda x: erf(x) / x)
large, large_error = minimax(lambda x: erfc(x) * np.exp(x * x), SWITCH, CLAMP, 7,
                             lambda x: 1 / (1 + x / 2), lambda x: erfc(x) * np.exp(x * x))
small, large = small.astype(np.float32), large.astype(np.float32)


def horner(coefficients, v):
    total = np.zeros_like(v)
    for c in coefficients[::-1]:
        total = total * v + c
    return total


def float_erf(x):
    a = np.abs(x)
    below = x + x * horner(small, a * a)
    clamped = np.minimum(a, np.float32(CLAMP))
    t = np.float32(1) / (np.float32(1) + np.float32(0.5) * clamped)
    above = np.copysign(np.float32(1) - np.exp(-(clamped * clamped)) * horner(large, t), x)
    return np.where(a >= SWITCH, above, below)


x = np.arange(1, 0x40900000, 2003, dtype=np.uint32).view(np.float32)
exact = np.array([math.erf(float(v)) for v in x])
ulps = np.abs(float_erf(x).astype(np.float64) - exact) / np.spacing(exact.astype(np.float32))
print(f"fit: relative {small_error:.2e} below {SWITCH}, {large_error:.2e} above")
print(f"float evaluation: within {ulps.max():.2f} ulp over {x.size} floats in (0, 4.5)")
print("P:", ", ".join(f"{c}f" for c in small))
print("Q:", ", ".join(f"{c}f" for c in large))
