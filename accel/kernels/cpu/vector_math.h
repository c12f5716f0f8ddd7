// Vectors of 64 bytes (16 floats or 8 doubles) on which the element-wise formulas of
// kernels/common/unary_math.h and activation_math.h run unchanged: arithmetic operators,
// comparisons to masks and if_else, a scalar converts to a broadcast vector, and exp, log, log1p,
// expm1, sin, cos, tanh, double erf, sqrt, tan, the inverse and hyperbolic functions, log2,
// log10, exp2 and erfc come from SLEEF (the vectorized libm PyTorch's CPU kernels use, within 1
// ulp; tanh within 3.5, erfc 1.5), one call per register of the widest instruction set the
// build targets; float erf is accel's own (within 0.7 ulp). Found by argument-dependent lookup, so
// a formula that calls `exp(x)` unqualified gets std::exp for a scalar and these for a vector.
#pragma once

#include <sleef.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

#include "accel/kernels/cpu/simd_vector.h"

#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace accel::cpu::simd {

template <typename A>
struct MathVector {
  using Scalar = A;
  using Raw = Vector<A>;  // simd_vector.h's 64-byte vector
  static constexpr int64_t kLanes = simd::kLanes<A>;
  Raw lanes;

  MathVector() = default;
  explicit MathVector(A broadcast) : lanes(Raw{} + broadcast) {}
  static MathVector of(Raw raw) {
    MathVector v;
    v.lanes = raw;
    return v;
  }
};

template <typename A>
MathVector<A> operator+(MathVector<A> a, MathVector<A> b) {
  return MathVector<A>::of(a.lanes + b.lanes);
}
template <typename A>
MathVector<A> operator-(MathVector<A> a, MathVector<A> b) {
  return MathVector<A>::of(a.lanes - b.lanes);
}
template <typename A>
MathVector<A> operator*(MathVector<A> a, MathVector<A> b) {
  return MathVector<A>::of(a.lanes * b.lanes);
}
template <typename A>
MathVector<A> operator/(MathVector<A> a, MathVector<A> b) {
  return MathVector<A>::of(a.lanes / b.lanes);
}
template <typename A>
MathVector<A> operator-(MathVector<A> a) {
  return MathVector<A>::of(-a.lanes);
}

// Lane-wise comparisons give masks (all bits set where true), which combine with & and | and
// pick lanes with if_else: the branches of kernels/common/activation_math.h's formulas.
template <typename A>
struct MathMask {
  decltype(Vector<A>{} < Vector<A>{}) lanes;
};
#define ACCEL_MATH_VECTOR_COMPARISON(op)                      \
  template <typename A>                                       \
  MathMask<A> operator op(MathVector<A> a, MathVector<A> b) { \
    return {a.lanes op b.lanes};                              \
  }
ACCEL_MATH_VECTOR_COMPARISON(<)
ACCEL_MATH_VECTOR_COMPARISON(<=)
ACCEL_MATH_VECTOR_COMPARISON(>)
ACCEL_MATH_VECTOR_COMPARISON(>=)
#undef ACCEL_MATH_VECTOR_COMPARISON
template <typename A>
MathMask<A> operator&(MathMask<A> a, MathMask<A> b) {
  return {a.lanes & b.lanes};
}
template <typename A>
MathMask<A> operator|(MathMask<A> a, MathMask<A> b) {
  return {a.lanes | b.lanes};
}
template <typename A>
MathVector<A> if_else(MathMask<A> condition, MathVector<A> a, MathVector<A> b) {
  return MathVector<A>::of(condition.lanes ? a.lanes : b.lanes);
}

// f applied to each register-sized part of v (Part: the type f takes, at most 64 bytes).
template <typename Part, typename A, typename F>
MathVector<A> in_parts(MathVector<A> v, F f) {
  MathVector<A> out;
  for (size_t offset = 0; offset < sizeof v.lanes; offset += sizeof(Part)) {
    Part part;
    std::memcpy(&part, reinterpret_cast<const char*>(&v.lanes) + offset, sizeof part);
    const Part result = f(part);
    std::memcpy(reinterpret_cast<char*>(&out.lanes) + offset, &result, sizeof result);
  }
  return out;
}

// The register types SLEEF's functions take on the widest instruction set the build targets,
// and the suffixes of those functions' names (float type, suffix, double type, suffix).
#if defined(__AVX512F__)
#define ACCEL_SLEEF_TYPES __m512, f16, __m512d, d8
#elif defined(__AVX__)
#define ACCEL_SLEEF_TYPES __m256, f8, __m256d, d4
#elif defined(__SSE2__)
#define ACCEL_SLEEF_TYPES __m128, f4, __m128d, d2
#elif defined(__ARM_NEON)
#define ACCEL_SLEEF_TYPES float32x4_t, f4, float64x2_t, d2
#else  // no vector unit SLEEF knows: its scalar functions, one lane at a time
#define ACCEL_SLEEF_TYPES float, f, double,
#endif

// name(MathVector<A>) through SLEEF's version of the given accuracy: u10 (within 1.0 ulp) or
// u35 (3.5), for float or double, or both.
#define ACCEL_VECTOR_FUNCTION_OF(name, accuracy, A, part, suffix)                          \
  inline MathVector<A> name(MathVector<A> x) {                                             \
    return in_parts<part>(x, [](part p) { return Sleef_##name##suffix##_##accuracy(p); }); \
  }
#define ACCEL_FLOAT_VECTOR_FUNCTION_OF(name, accuracy, float_part, float_suffix, ...) \
  ACCEL_VECTOR_FUNCTION_OF(name, accuracy, float, float_part, float_suffix)
#define ACCEL_DOUBLE_VECTOR_FUNCTION_OF(name, accuracy, float_part, float_suffix, double_part, \
                                        double_suffix)                                         \
  ACCEL_VECTOR_FUNCTION_OF(name, accuracy, double, double_part, double_suffix)
#define ACCEL_EXPAND(macro, ...) macro(__VA_ARGS__)
#define ACCEL_DOUBLE_VECTOR_FUNCTION(name, accuracy) \
  ACCEL_EXPAND(ACCEL_DOUBLE_VECTOR_FUNCTION_OF, name, accuracy, ACCEL_SLEEF_TYPES)
#define ACCEL_MATH_VECTOR_FUNCTION(name, accuracy)                                \
  ACCEL_EXPAND(ACCEL_FLOAT_VECTOR_FUNCTION_OF, name, accuracy, ACCEL_SLEEF_TYPES) \
  ACCEL_DOUBLE_VECTOR_FUNCTION(name, accuracy)

ACCEL_MATH_VECTOR_FUNCTION(exp, u10)
ACCEL_MATH_VECTOR_FUNCTION(log, u10)
ACCEL_MATH_VECTOR_FUNCTION(sin, u10)
ACCEL_MATH_VECTOR_FUNCTION(cos, u10)
ACCEL_MATH_VECTOR_FUNCTION(log1p, u10)
ACCEL_MATH_VECTOR_FUNCTION(expm1, u10)
ACCEL_DOUBLE_VECTOR_FUNCTION(erf, u10)
ACCEL_MATH_VECTOR_FUNCTION(sqrt, u05)  // correctly rounded (the instruction)
ACCEL_MATH_VECTOR_FUNCTION(tan, u10)
ACCEL_MATH_VECTOR_FUNCTION(asin, u10)
ACCEL_MATH_VECTOR_FUNCTION(acos, u10)
ACCEL_MATH_VECTOR_FUNCTION(atan, u10)
ACCEL_MATH_VECTOR_FUNCTION(sinh, u10)
ACCEL_MATH_VECTOR_FUNCTION(cosh, u10)
ACCEL_MATH_VECTOR_FUNCTION(asinh, u10)
ACCEL_MATH_VECTOR_FUNCTION(acosh, u10)
ACCEL_MATH_VECTOR_FUNCTION(atanh, u10)
ACCEL_MATH_VECTOR_FUNCTION(log2, u10)
ACCEL_MATH_VECTOR_FUNCTION(log10, u10)
ACCEL_MATH_VECTOR_FUNCTION(exp2, u10)
ACCEL_MATH_VECTOR_FUNCTION(erfc, u15)
// tanh at u35: 3x faster than SLEEF's u10 (0.54 against 1.7 ns a float here) and within 2.7
// ulp measured over every range (glibc's scalar tanhf: 1.95).
ACCEL_MATH_VECTOR_FUNCTION(tanh, u35)

// lanes[i] = table[index[i]] for indices in [0, 16): one permute per register on AVX-512, two
// and a blend per half on AVX2, else lane by lane.
inline MathVector<float> lookup_16(const float (&table)[16], const Vector<int32_t>& index) {
  Vector<float> out;
#if defined(__AVX512F__)
  // (The masked form with every lane set: GCC's plain one warns of its undefined pass-through.)
  const __m512 entries = _mm512_loadu_ps(table);
  const __m512 lanes =
      _mm512_mask_permutexvar_ps(entries, 0xffff, std::bit_cast<__m512i>(index), entries);
  std::memcpy(&out, &lanes, sizeof out);
#elif defined(__AVX2__)
  const __m256 low = _mm256_loadu_ps(table), high = _mm256_loadu_ps(table + 8);
  for (int half = 0; half < 2; ++half) {
    __m256i part;
    std::memcpy(&part, reinterpret_cast<const char*>(&index) + 32 * half, sizeof part);
    const __m256 upper = _mm256_castsi256_ps(_mm256_cmpgt_epi32(part, _mm256_set1_epi32(7)));
    const __m256 lanes = _mm256_blendv_ps(_mm256_permutevar8x32_ps(low, part),
                                          _mm256_permutevar8x32_ps(high, part), upper);
    std::memcpy(reinterpret_cast<char*>(&out) + 32 * half, &lanes, sizeof lanes);
  }
#else
  for (int64_t i = 0; i < kLanes<float>; ++i) out[i] = table[index[i]];
#endif
  return MathVector<float>::of(out);
}

// erf of floats, accel's own: SLEEF's float erf exists only within 1 ulp and costs about 2.5 ns
// an element (10x its exp). |x| in [0, 4] is cut into sixteen intervals of 1/4, each with a
// degree-5 polynomial S in t = |x| - i/4, its coefficients looked up per lane; with base =
// min(|x|, 1), erf = base + base * S: |x| (1 + S) below 1, where S fits erf(x)/x - 1, and 1 + S
// above, where S fits -erfc(x) (|x| clamped to 4, beyond which erf is 1 in float); the sign
// restored. Within 0.7 ulp over sampled floats of every range (tests/core/vector_math_test.cpp);
// the table from scripts/fit-erf-coefficients.py, row k holding t^k's coefficients.
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
     -0.00298964255f, -0.000934038602f, -0.000249706529f, -5.74687219e-05f, -1.14353879e-05f},
    {-0.0194442011f, -0.0462021194f, -0.0464203283f, -0.0255043171f, -0.0610239059f, -0.0306492317f,
     -0.00232718023f, 0.0113088833f, 0.0124369496f, 0.00836101267f, 0.00423905021f, 0.00172976905f,
     0.000585306552f, 0.000166982078f, 4.05841929e-05f, 8.46232251e-06f},
};
inline MathVector<float> erf(MathVector<float> x) {
  using V = Vector<float>;
  using Bits = Vector<int32_t>;
  const Bits sign = std::bit_cast<Bits>(x.lanes) & std::numeric_limits<int32_t>::min();
  const V a = std::bit_cast<V>(std::bit_cast<Bits>(x.lanes) ^ sign);
  // Comparisons written so that a NaN takes the last interval and stays NaN through t and base.
  const V scaled = a * 4.f;
  const Bits interval = __builtin_convertvector(scaled < 15.5f ? scaled : V{} + 15.5f, Bits);
  const V t = (a > 4.f ? V{} + 4.f : a) - __builtin_convertvector(interval, V) * 0.25f;
  V s = lookup_16(kErfTable[5], interval).lanes;
  for (int power = 4; power >= 0; --power) s = s * t + lookup_16(kErfTable[power], interval).lanes;
  const V base = a > 1.f ? V{} + 1.f : a;
  return MathVector<float>::of(std::bit_cast<V>(std::bit_cast<Bits>(base + base * s) | sign));
}

#undef ACCEL_MATH_VECTOR_FUNCTION
#undef ACCEL_DOUBLE_VECTOR_FUNCTION
#undef ACCEL_EXPAND
#undef ACCEL_DOUBLE_VECTOR_FUNCTION_OF
#undef ACCEL_FLOAT_VECTOR_FUNCTION_OF
#undef ACCEL_VECTOR_FUNCTION_OF
#undef ACCEL_SLEEF_TYPES

}  // namespace accel::cpu::simd
