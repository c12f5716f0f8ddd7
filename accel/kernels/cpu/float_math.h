// accel's own float functions on 64-byte vectors, where SLEEF's cost several times an exp or
// are less exact for the price: erf and tanh (a table of polynomials, looked up per lane), expm1,
// log and log1p (a range reduction and one polynomial). Each is within the bound its test
// measures over a sample of every float (tests/core/vector_math_test.cpp): erf 0.7 ulp, log and
// log1p 0.8, tanh 1.1 (SLEEF's tanh at this cost: 2.7), expm1 1.2. The coefficients come from
// scripts/fit-float-math-coefficients.py, whose fits assume that a * b + c fuses where the
// target has fused multiply-adds.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "accel/kernels/cpu/math_vector.h"

namespace accel::cpu::simd {

namespace float_math {

using Floats = Vector<float>;
using Bits = Vector<int32_t>;

inline Floats splat(float value) { return Floats{} + value; }
inline Floats bits_to_floats(Bits bits) { return std::bit_cast<Floats>(bits); }
inline Bits float_bits(Floats x) { return std::bit_cast<Bits>(x); }

inline constexpr float kInfinity = std::numeric_limits<float>::infinity();
inline constexpr int32_t kSignBit = std::numeric_limits<int32_t>::min();

// 2^n for integer lanes n in [-126, 127].
inline Floats power_of_two(Bits n) { return bits_to_floats((n + 127) << 23); }

// v * 2^n for n in [-252, 254], rounded once: by two exact powers of two, since 2^n alone need
// not be a normal float while the product is (or is subnormal, or overflows).
inline Floats scale(Floats v, Bits n) {
  const Bits half = n >> 1;
  return v * power_of_two(half) * power_of_two(n - half);
}

// x = n ln2 + r with |r| <= ln2/2 (for x in [-104, 89]) and e^r - 1 = r + square_term, the two
// kept apart so that callers add them in the order that loses least.
struct ExponentSplit {
  Floats r, square_term;
  Bits n;
};
inline ExponentSplit split_exponent(Floats x) {
  constexpr float kRoundingShift = 0x1.8p23f;  // adding it rounds to an integer
  const Floats shifted = x * 1.44269504088896341f + kRoundingShift;
  const Floats n = shifted - kRoundingShift;
  // ln2 in two parts; the first's trailing zeros make n times it exact.
  const Floats r = (x - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  Floats e = splat(0.000198458773f);
  e = e * r + 0.00139406184f;
  e = e * r + 0.00833338965f;
  e = e * r + 0.0416663624f;
  e = e * r + 0.166666657f;
  e = e * r + 0.5f;
  return {r, r * r * e, float_bits(shifted) - float_bits(splat(kRoundingShift))};
}

// The lanes of `value` where |x| < 2^-24 (where e^x - 1 and log(1 + x) round to x) take x, so
// that -0 and the subnormals come back as they went in.
inline Floats unless_tiny(Floats x, Floats value) {
  return ((x > -0x1p-24f) & (x < 0x1p-24f)) ? x : value;
}

// log(x) + correction / x for positive finite x and a correction below an ulp of x (log1p's):
// with x = 2^e m, m in [sqrt(1/2), sqrt(2)) and f = m - 1 (exact),
// log(1 + f) = f - f^2/2 + f^3 L(f), and ln2 in two parts, summed from the smallest term up.
inline Floats log_of_positive(Floats x, Floats correction) {
  const Bits subnormal = x < 0x1p-126f;  // scaled into the normal range first
  const Floats normal = subnormal ? x * 0x1p23f : x;
  const Bits offset = float_bits(normal) - 0x3f3504f3;  // the bits of sqrt(1/2)
  const Floats e = __builtin_convertvector((offset >> 23) + (subnormal & -23), Floats);
  const Floats f = bits_to_floats((offset & 0x007fffff) + 0x3f3504f3) - 1.f;
  Floats l = splat(0.0674661398f);
  l = l * f - 0.11675664f;
  l = l * f + 0.118881814f;
  l = l * f - 0.124055885f;
  l = l * f + 0.142195493f;
  l = l * f - 0.166679963f;
  l = l * f + 0.200021192f;
  l = l * f - 0.250000089f;
  l = l * f + 0.333333135f;
  const Floats low = f * f * f * l + (e * 1.428606765330187e-06f + correction / x);
  return e * 0.693145751953125f + (f - (0.5f * f * f - low));
}

// log's values where x is not positive and finite: -inf at 0, NaN below, x itself at inf or NaN.
inline Floats log_of_any(Floats x, Floats of_positive) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  const Floats special = x == 0.f ? splat(-kInfinity) : (x < 0.f ? splat(kNaN) : x);
  return ((x > 0.f) & (x < kInfinity)) ? of_positive : special;
}

// Sixteen polynomials of degree Powers - 1 in t = |x| - i * width on [i * width, (i + 1) * width),
// the last reaching `clamp`, their coefficients looked up per lane (row k: t^k's):
// base + base * S_i(t) with base = min(|x|, 1), the sign of x restored. Below 1, S fits
// f(x)/x - 1; above, f(x) - 1 (the script describes the fits).
template <int Powers>
Floats odd_interval_polynomials(Floats x, const float (&table)[Powers][16], float width,
                                float clamp) {
  const Bits sign = float_bits(x) & kSignBit;
  const Floats a = bits_to_floats(float_bits(x) ^ sign);
  // Comparisons written so that a NaN takes the last interval and stays NaN through t and base.
  const Floats scaled = a * (1.f / width);
  const Bits interval = __builtin_convertvector(scaled < 15.5f ? scaled : splat(15.5f), Bits);
  const Floats t =
      (a > clamp ? splat(clamp) : a) - __builtin_convertvector(interval, Floats) * width;
  Floats s = lookup_16(table[Powers - 1], interval).lanes;
  for (int power = Powers - 2; power >= 0; --power) {
    s = s * t + lookup_16(table[power], interval).lanes;
  }
  const Floats base = a > 1.f ? splat(1.f) : a;
  return bits_to_floats(float_bits(base + base * s) | sign);
}

inline constexpr float kErfTable[6][16] = {
    {0.128379166f, 0.10530556f, 0.0409997553f, -0.0517924912f, -0.157299206f, -0.0770998746f,
     -0.0338948555f, -0.0133283297f, -0.0046777348f, -0.00146271626f, -0.00040695176f,
     -0.000100621786f, -2.20904421e-05f, -4.30276168e-06f, -7.43093551e-07f, -1.13726159e-07f},
    {-8.51801587e-07f, -0.181166068f, -0.324434072f, -0.407034636f, 0.415107995f, 0.236521885f,
     0.118930794f, 0.0527751446f, 0.0206669271f, 0.00714221271f, 0.00217820611f, 0.000586237176f,
     0.000139236989f, 2.91837787e-05f, 5.39799703e-06f, 8.81102949e-07f},
    {-0.376086384f, -0.335334241f, -0.229926556f, -0.100245647f, -0.415130645f, -0.295686811f,
     -0.178419337f, -0.0923636109f, -0.0413314067f, -0.0160652548f, -0.00544201955f,
     -0.00161035277f, -0.000416989351f, -9.46115179e-05f, -1.8828785e-05f, -3.28936062e-06f},
    {-0.000688133121f, 0.104416646f, 0.167100668f, 0.169815868f, 0.138747215f, 0.168140709f,
     0.13916944f, 0.0902910903f, 0.0481826589f, 0.0216398779f, 0.00828604959f, 0.00272692787f,
     0.000775507477f, 0.000191315456f, 4.10576031e-05f, 7.68158679e-06f},
    {0.118207052f, 0.0915746763f, 0.03099305f, -0.028459942f, 0.0664746389f, -0.0108273141f,
     -0.0479268208f, -0.0492311753f, -0.0341759697f, -0.0184315704f, -0.00811634213f,
     -0.00298964255f, -0.000934038602f, -0.000249706529f, -5.74687219e-05f, -1.14353898e-05f},
    {-0.0194442011f, -0.0462021194f, -0.0464203283f, -0.0255043171f, -0.0610239059f, -0.0306492317f,
     -0.00232718023f, 0.0113088833f, 0.0124369496f, 0.00836101267f, 0.00423905021f, 0.00172976905f,
     0.000585306494f, 0.000166982078f, 4.05841929e-05f, 8.46232433e-06f},
};

inline constexpr float kTanhTable[7][16] = {
    {2.74798975e-08f, -0.0757656917f, -0.238405854f, -0.0948517472f, -0.0359724201f, -0.0133857019f,
     -0.00494524604f, -0.00182210235f, -0.000670700276f, -0.000246789161f, -9.07957365e-05f,
     -3.34028446e-05f, -1.22883494e-05f, -4.52064842e-06f, -1.66305608e-06f, -6.11795997e-07f},
    {-5.27357861e-06f, -0.275572121f, 0.419975162f, 0.180707023f, 0.0706508458f, 0.0265922062f,
     0.0098660253f, 0.00364087964f, 0.00134094874f, 0.00049351668f, 0.00018158296f, 6.6804474e-05f,
     2.45765114e-05f, 9.04126318e-06f, 3.32610443e-06f, 1.223033e-06f},
    {-0.333168417f, -0.175744504f, -0.319875211f, -0.163578868f, -0.068110168f, -0.0262356438f,
     -0.00981686451f, -0.00363408774f, -0.00133998832f, -0.000493372034f, -0.000181558018f,
     -6.67991189e-05f, -2.45750598e-05f, -9.04079934e-06f, -3.32594323e-06f, -1.21716789e-06f},
    {-0.00192191324f, 0.16331929f, 0.103895731f, 0.0879729912f, 0.0421201214f, 0.0170134809f,
     0.00647534477f, 0.00241200416f, 0.000891396252f, 0.00032847852f, 0.000120915298f,
     4.44923789e-05f, 1.63692021e-05f, 6.02207865e-06f, 2.21542405e-06f, 7.88364559e-07f},
    {0.143830314f, 0.00206046877f, 0.0261479449f, -0.0259078722f, -0.0179649554f, -0.00800492521f,
     -0.00314822141f, -0.00118644454f, -0.000440333941f, -0.000162514843f, -5.98570186e-05f,
     -2.20298007e-05f, -8.10561414e-06f, -2.98206555e-06f, -1.09706446e-06f, -3.50923045e-07f},
    {-0.0282175969f, -0.059486337f, -0.0422772504f, 0.000330307346f, 0.00504983077f, 0.00273308577f,
     0.00113601587f, 0.000436225266f, 0.000162988508f, 6.03014669e-05f, 2.22299459e-05f,
     8.18420722e-06f, 3.01164914e-06f, 1.10803876e-06f, 4.07640243e-07f, 9.87395694e-08f},
    {-0.021654712f, 0.0254274048f, 0.0150581496f, 0.00210134615f, -0.000715315924f,
     -0.000545514515f, -0.00024368304f, -9.57191442e-05f, -3.60479535e-05f, -1.33749363e-05f,
     -4.935775e-06f, -1.81785754e-06f, -6.69034421e-07f, -2.46162301e-07f, -9.05632618e-08f,
     -1.30433238e-08f},
};

}  // namespace float_math

// erf: intervals of 1/4 up to 4, beyond which erf is 1 in float.
inline MathVector<float> erf(MathVector<float> x) {
  return MathVector<float>::of(
      float_math::odd_interval_polynomials(x.lanes, float_math::kErfTable, 0.25f, 4.f));
}

// tanh: intervals of 1/2 up to 9.02, beyond which tanh is 1 in float.
inline MathVector<float> tanh(MathVector<float> x) {
  return MathVector<float>::of(
      float_math::odd_interval_polynomials(x.lanes, float_math::kTanhTable, 0.5f, 9.02f));
}

// e^x - 1 = 2^n (r + square_term + 1 - 2^-n): for n <= 2, 1 - 2^-n is exact and r joins it
// first (for n = 1 and r near -ln2/2 the two cancel); above, the tail 2^-n is small beside the
// sum.
inline MathVector<float> expm1(MathVector<float> x) {
  using namespace float_math;
  // Below -18, e^x - 1 rounds to -1; above 89 it overflows; a NaN is restored at the end.
  const Floats above = x.lanes > -18.f ? x.lanes : splat(-18.f);
  const ExponentSplit split = split_exponent(above < 89.f ? above : splat(89.f));
  const Floats tail = scale(splat(1.f), -split.n);
  const Floats sum = split.n > 2 ? ((split.r + split.square_term) - tail) + 1.f
                                 : (split.r + (1.f - tail)) + split.square_term;
  const Floats y = unless_tiny(x.lanes, scale(sum, split.n));
  return MathVector<float>::of(x.lanes == x.lanes ? y : x.lanes);
}

inline MathVector<float> log(MathVector<float> x) {
  using namespace float_math;
  return MathVector<float>::of(log_of_any(x.lanes, log_of_positive(x.lanes, splat(0.f))));
}

// log(1 + x) = log(u) + (x - (u - 1)) / u for u = 1 + x rounded: the second term is what the
// rounding of u lost.
inline MathVector<float> log1p(MathVector<float> x) {
  using namespace float_math;
  const Floats u = x.lanes + 1.f;
  const Floats y = log_of_positive(u, x.lanes - (u - 1.f));
  return MathVector<float>::of(unless_tiny(x.lanes, log_of_any(u, y)));
}

}  // namespace accel::cpu::simd
