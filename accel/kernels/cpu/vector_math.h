// Vectors of 64 bytes (16 floats or 8 doubles) on which the element-wise formulas of
// kernels/common/unary_math.h run unchanged: arithmetic operators, a scalar converts to a
// broadcast vector, and exp, log, sin, cos, tanh and erf come from SLEEF (the vectorized libm
// PyTorch's CPU kernels use, within 1 ulp; tanh within 3.5), one call per register of the
// widest instruction set the build targets. Found by argument-dependent lookup, so a formula that
// calls `exp(x)` unqualified gets std::exp for a scalar and these for a vector.
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

// name(MathVector<float>) and name(MathVector<double>), through SLEEF's versions of the given
// accuracy: u10 (within 1.0 ulp) or u35 (3.5).
#define ACCEL_MATH_VECTOR_FUNCTION_OF(name, accuracy, float_part, float_suffix, double_part, \
                                      double_suffix)                                         \
  inline MathVector<float> name(MathVector<float> x) {                                       \
    return in_parts<float_part>(                                                             \
        x, [](float_part part) { return Sleef_##name##float_suffix##_##accuracy(part); });   \
  }                                                                                          \
  inline MathVector<double> name(MathVector<double> x) {                                     \
    return in_parts<double_part>(                                                            \
        x, [](double_part part) { return Sleef_##name##double_suffix##_##accuracy(part); }); \
  }
#define ACCEL_MATH_VECTOR_FUNCTION_WITH(name, accuracy, ...) \
  ACCEL_MATH_VECTOR_FUNCTION_OF(name, accuracy, __VA_ARGS__)
#define ACCEL_MATH_VECTOR_FUNCTION(name, accuracy) \
  ACCEL_MATH_VECTOR_FUNCTION_WITH(name, accuracy, ACCEL_SLEEF_TYPES)

ACCEL_MATH_VECTOR_FUNCTION(exp, u10)
ACCEL_MATH_VECTOR_FUNCTION(log, u10)
ACCEL_MATH_VECTOR_FUNCTION(sin, u10)
ACCEL_MATH_VECTOR_FUNCTION(cos, u10)
ACCEL_MATH_VECTOR_FUNCTION(erf, u10)
// tanh at u35: 3x faster than SLEEF's u10 (0.54 against 1.7 ns a float here) and within 2.7
// ulp measured over every range (glibc's scalar tanhf: 1.95).
ACCEL_MATH_VECTOR_FUNCTION(tanh, u35)

#undef ACCEL_MATH_VECTOR_FUNCTION
#undef ACCEL_MATH_VECTOR_FUNCTION_WITH
#undef ACCEL_MATH_VECTOR_FUNCTION_OF
#undef ACCEL_SLEEF_TYPES

}  // namespace accel::cpu::simd
