// Vectors of 64 bytes (16 floats or 8 doubles) on which the element-wise formulas of
// kernels/common/unary_math.h run unchanged: arithmetic operators, a scalar converts to a
// broadcast vector, and exp, log, sin, cos, tanh and double erf come from SLEEF (the vectorized
// libm PyTorch's CPU kernels use, within 1 ulp; tanh within 3.5), one call per register of the
// widest instruction set the build targets; float erf is accel's own (within 1.5 ulp). Found by
// argument-dependent lookup, so a formula that calls `exp(x)` unqualified gets std::exp for a
// scalar and these for a vector.
#pragma once

#include <sleef.h>

#include <cstdint>
#include <cstring>

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
ACCEL_DOUBLE_VECTOR_FUNCTION(erf, u10)
// tanh at u35: 3x faster than SLEEF's u10 (0.54 against 1.7 ns a float here) and within 2.7
// ulp measured over every range (glibc's scalar tanhf: 1.95).
ACCEL_MATH_VECTOR_FUNCTION(tanh, u35)

// erf of floats, accel's own: SLEEF's float erf exists only within 1 ulp and costs about 2.5 ns
// an element here (10x its exp), which kept exact GELU 5x behind PyTorch. Within 1.5 ulp over
// sampled floats of every range (tests/core/vector_math_test.cpp): x + x P(x^2) below 0.921875,
// else 1 - exp(-x^2) Q(1 / (1 + x/2)) with x clamped to 4 (beyond, erf is 1 in float), the sign
// restored; P and Q from scripts/fit-erf-coefficients.py.
inline MathVector<float> erf(MathVector<float> x) {
  using V = Vector<float>;
  const V v = x.lanes;
  const V a = v < 0.f ? -v : v;
  const V square = a * a;
  V p = V{} - 0.0005991149f;
  p = p * square + 0.00499325f;
  p = p * square - 0.026766676f;
  p = p * square + 0.11281818f;
  p = p * square - 0.37612495f;
  p = p * square + 0.12837915f;
  const V below = v + v * p;
  const V clamped = a < 4.f ? a : V{} + 4.f;
  const V t = 1.f / (1.f + 0.5f * clamped);
  V q = V{} + 0.11944024f;
  q = q * t - 0.47156984f;
  q = q * t + 0.56388617f;
  q = q * t - 0.10416532f;
  q = q * t + 0.34809148f;
  q = q * t + 0.2596f;
  q = q * t + 0.2849269f;
  q = q * t - 0.00015516674f;
  const V magnitude = 1.f - exp(MathVector<float>::of(-(clamped * clamped))).lanes * q;
  const V above = v < 0.f ? -magnitude : magnitude;
  // A NaN fails a >= 0.921875 and stays NaN through `below`.
  return MathVector<float>::of(a >= 0.921875f ? above : below);
}

#undef ACCEL_MATH_VECTOR_FUNCTION
#undef ACCEL_DOUBLE_VECTOR_FUNCTION
#undef ACCEL_EXPAND
#undef ACCEL_DOUBLE_VECTOR_FUNCTION_OF
#undef ACCEL_FLOAT_VECTOR_FUNCTION_OF
#undef ACCEL_VECTOR_FUNCTION_OF
#undef ACCEL_SLEEF_TYPES

}  // namespace accel::cpu::simd
