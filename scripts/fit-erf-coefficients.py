#!/usr/bin/env python3
"""Fits the coefficient table of the CPU's float erf (accel/kernels/cpu/vector_math.h) and prints
it with the largest error found, in ulp, of the float evaluation over sampled floats.

|x| in [0, 4] is cut into sixteen intervals [i/4, (i+1)/4); on each, one degree-5 polynomial in
t = |x| - i/4 (the coefficients of all sixteen are looked up per lane with one permute each):

  erf(x) = |x| + |x| * S_i(t)     for |x| < 1,  S_i fitting erf(x)/x - 1
  erf(x) = 1 + 1 * S_i(t)         above,        S_i fitting -erfc(x)  (|x| clamped to 4)

so that base + base * S_i(t) with base = min(|x|, 1) covers both, the sign restored at the end.
Each polynomial is a weighted least-squares fit reweighted towards its largest errors (Lawson's
algorithm, which converges on the minimax fit), its error measured relative to erf(x)/x below
1 and absolutely above (where erf is within 0.16 of 1). Needs numpy:
  python3 scripts/fit-erf-coefficients.py
"""
import math

import numpy as np

INTERVALS = 16
WIDTH = 0.25
DEGREE = 5
CLAMP = 4.0
LINEAR_BELOW = 1.0  # intervals below use base |x|, those above base 1

erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)


def minimax(f, scale, lo, hi, iterations=60):
    """The polynomial in x - lo closest to f on [lo, hi], its error relative to scale(x)."""
    x = np.cos(np.linspace(0, np.pi, 2000)) * (hi - lo) / 2 + (hi + lo) / 2
    x = np.maximum(x, 1e-9)
    basis = np.vander(x - lo, DEGREE + 1, increasing=True) / scale(x)[:, None]
    target = f(x) / scale(x)
    weights = np.ones_like(x)
    for _ in range(iterations):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(basis * root[:, None], target * root, rcond=None)
        error = np.abs(basis @ coefficients - target)
        weights = weights * error / np.sum(weights * error)
    return coefficients, error.max()


table, fit_errors = [], []
for i in range(INTERVALS):
    lo, hi = i * WIDTH, (i + 1) * WIDTH
    if hi <= LINEAR_BELOW:
        coefficients, error = minimax(lambda x: erf(x) / x - 1, lambda x: erf(x) / x, lo, hi)
    else:
        coefficients, error = minimax(lambda x: -erfc(x), np.ones_like, lo, hi)
    table.append(coefficients.astype(np.float32))
    fit_errors.append(error)
table = np.array(table)  # [interval, power]

f32 = np.float32


def fma(a, b, c):
    return (a.astype(np.float64) * b + c).astype(f32)


def float_erf(x):
    """The kernel's evaluation, step by step in float (fused multiply-adds rounded once)."""
    a = np.abs(x)
    with np.errstate(over="ignore", invalid="ignore"):
        index = np.minimum(a * f32(1 / WIDTH), f32(INTERVALS - 0.5)).astype(np.int32)
    t = fma(index.astype(f32), np.full_like(a, f32(-WIDTH)), np.minimum(a, f32(CLAMP)))
    s = table[index, DEGREE].copy()
    for power in range(DEGREE - 1, -1, -1):
        s = fma(s, t, table[index, power])
    base = np.minimum(a, f32(LINEAR_BELOW))
    return np.copysign(fma(base, s, base), x)


x = np.arange(1, 0x7F800000, 1009, dtype=np.uint32).view(np.float32)
exact = np.array([math.erf(float(v)) for v in x])
ulps = np.abs(float_erf(x).astype(np.float64) - exact) / np.spacing(
    np.abs(exact).astype(np.float32)).astype(np.float64)
print(f"fit: worst error {max(fit_errors):.2e}")
print(f"float evaluation: within {ulps.max():.2f} ulp over {x.size} positive floats "
      f"(worst at {x[ulps.argmax()]})")
for power in range(DEGREE + 1):
    print("    {" + ", ".join(f"{c:.9g}f" for c in table[:, power]) + "},")
