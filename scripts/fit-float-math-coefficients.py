#!/usr/bin/env python3
"""Fits the coefficients of the CPU's own float functions (accel/kernels/cpu/float_math.h) and
prints them as C++ with the largest error of each fit.

erf and tanh: a table of sixteen polynomials of degree 5 (erf) or 6 (tanh) in t = |x| - i w on
the intervals [i w, (i + 1) w) (the coefficients of all sixteen are looked up per lane with one
permute each; |x| clamped, the last interval reaching the clamp):

  f(x) = |x| + |x| * S_i(t)     for |x| < 1,  S_i fitting f(x)/x - 1
  f(x) = 1 + 1 * S_i(t)         above,        S_i fitting f(x) - 1

so that base + base * S_i(t) with base = min(|x|, 1) covers both, the sign restored at the end.
erf: w = 1/4, clamp 4 (erf is 1 in float beyond); tanh: w = 1/2, clamp 9.02 (likewise).
For these two the float evaluation is also run over sampled floats and its error printed in ulp.

expm1 and exp's reduced argument: e^r - 1 = r + r^2 E(r) on |r| <= ln2/2.
log: log(1 + f) = f - f^2/2 + f^3 L(f) for 1 + f in [sqrt(1/2), sqrt(2)).

Each polynomial is a weighted least-squares fit reweighted towards its largest errors (Lawson's
algorithm, which converges on the minimax fit), its error measured relative to the function (to
f(x)/x in the intervals below 1, absolutely where a table's function is within 0.25 of 1).
Needs numpy:
  python3 scripts/fit-float-math-coefficients.py
"""
import math

import numpy as np

f32 = np.float32


def minimax(f, scale, lo, hi, basis, iterations=60):
    """Coefficients c minimizing max |basis(x) c - f(x)| / scale(x) over [lo, hi]."""
    x = np.cos(np.linspace(0, np.pi, 2000)) * (hi - lo) / 2 + (hi + lo) / 2
    x = np.where(np.abs(x) < 1e-9, 1e-9, x)
    rows = basis(x) / scale(x)[:, None]
    target = f(x) / scale(x)
    weights = np.ones_like(x)
    for _ in range(iterations):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(rows * root[:, None], target * root, rcond=None)
        error = np.abs(rows @ coefficients - target)
        weights = weights * error / np.sum(weights * error)
    return coefficients, error.max()


def powers(degree, shift=0.0, times=None):
    """The basis (x - shift)^k for k <= degree, each multiplied by times(x) if given."""
    def basis(x):
        rows = np.vander(x - shift, degree + 1, increasing=True)
        return rows if times is None else rows * times(x)[:, None]
    return basis


def fma(a, b, c):
    return (a.astype(np.float64) * b + c).astype(f32)


class Table:
    """A function as sixteen interval polynomials, as described above."""

    def __init__(self, name, function, degree, width, clamp):
        self.name, self.function = name, np.vectorize(function)
        self.degree, self.width, self.clamp = degree, width, clamp
        rows, self.fit_error = [], 0.0
        for i in range(16):
            lo, hi = i * width, (clamp if i == 15 else (i + 1) * width)
            if hi <= 1.0:
                c, e = minimax(lambda x: self.function(x) / x - 1, lambda x: self.function(x) / x,
                               lo, hi, powers(degree, lo))
            else:
                c, e = minimax(lambda x: self.function(x) - 1, np.ones_like, lo, hi,
                               powers(degree, lo))
            rows.append(c.astype(f32))
            self.fit_error = max(self.fit_error, e)
        self.table = np.array(rows)  # [interval, power]

    def evaluate(self, x):
        """The kernel's evaluation, step by step in float (fused multiply-adds rounded once)."""
        a = np.abs(x)
        with np.errstate(over="ignore", invalid="ignore"):
            index = np.minimum(a * f32(1 / self.width), f32(15.5)).astype(np.int32)
        t = fma(index.astype(f32), np.full_like(a, f32(-self.width)),
                np.minimum(a, f32(self.clamp)))
        s = self.table[index, self.degree].copy()
        for power in range(self.degree - 1, -1, -1):
            s = fma(s, t, self.table[index, power])
        base = np.minimum(a, f32(1.0))
        return np.copysign(fma(base, s, base), x)

    def report(self):
        x = np.arange(1, 0x7F800000, 1009, dtype=np.uint32).view(np.float32)
        exact = self.function(x.astype(np.float64))
        ulps = np.abs(self.evaluate(x).astype(np.float64) - exact) / np.spacing(
            np.abs(exact).astype(np.float32)).astype(np.float64)
        print(f"{self.name}: fit within {self.fit_error:.2e}; float evaluation within "
              f"{ulps.max():.2f} ulp over {x.size} positive floats (worst at {x[ulps.argmax()]})")
        print(f"inline constexpr float k{self.name.capitalize()}Table[{self.degree + 1}][16] = {{")
        for power in range(self.degree + 1):
            print("    {" + ", ".join(f"{c:.9g}f" for c in self.table[:, power]) + "},")
        print("};")


def report_polynomial(name, coefficients, error):
    print(f"{name}: fit within {error:.2e}, coefficients from the lowest power up:")
    print("    " + ", ".join(f"{c:.9g}f" for c in coefficients.astype(f32)))


Table("erf", math.erf, degree=5, width=0.25, clamp=4.0).report()
Table("tanh", math.tanh, degree=6, width=0.5, clamp=9.02).report()

half_ln2 = math.log(2) / 2
report_polynomial("expm1's E", *minimax(
    lambda r: np.expm1(r) - r, lambda r: np.abs(np.expm1(r)), -half_ln2, half_ln2,
    powers(5, times=lambda r: r * r)))

root_half = math.sqrt(0.5)
report_polynomial("log's L", *minimax(
    lambda f: np.log1p(f) - f + f * f / 2, lambda f: np.abs(np.log1p(f)), root_half - 1,
    2 * root_half - 1, powers(8, times=lambda f: f ** 3)))
