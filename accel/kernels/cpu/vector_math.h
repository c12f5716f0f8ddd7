// Vectors of 64 bytes (16 floats or 8 doubles) on which the element-wise formulas of
// kernels/common/unary_math.h run unchanged: arithmetic operators, a scalar converts to a
// broadcast vector, and exp, log, sin, cos, tanh and erf come from SLEEF (the vectorized libm
// PyTorch's CPU kernels use, within 1 ulp), one call per register of the widest instruction
// set the build targets. Found by argument-dependent lookup, so a formula that calls `exp(x)`
// unqualified gets std::exp for a scalar and these for a vector.
#pragma once

#include <sleef.h>

#include <cstdint>
#include <cstring>

#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace accel::cpu::simd {

template <typename A>
struct MathVectorOf;
template <>
struct MathVectorOf<float> {
  using raw = float __attribute__((vector_size(64)));
};
template <>
struct MathVectorOf<double> {
  using raw = double __attribute__((vector_size(64)));
};

template <typename A>
struct MathVector {
  using Scalar = A;
  using Raw = typename MathVectorOf<A>::raw;
  static constexpr int64_t kLanes = 64 / sizeof(A);
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

// SLEEF's name for a function on the register type of each instruction set (u10: 1.0 ulp).
#if defined(__AVX512F__)
using FloatPart = __m512;
using DoublePart = __m512d;
#define ACCEL_SLEEF_FLOAT(name) Sleef_##name##f16_u10
#define ACCEL_SLEEF_DOUBLE(name) Sleef_##name##d8_u10
#elif defined(__AVX__)
using FloatPart = __m256;
using DoublePart = __m256d;
#define ACCEL_SLEEF_FLOAT(name) Sleef_##name##f8_u10
#define ACCEL_SLEEF_DOUBLE(name) Sleef_##name##d4_u10
#elif defined(__SSE2__)
using FloatPart = __m128;
using DoublePart = __m128d;
#define ACCEL_SLEEF_FLOAT(name) Sleef_##name##f4_u10
#define ACCEL_SLEEF_DOUBLE(name) Sleef_##name##d2_u10
#elif defined(__ARM_NEON)
using FloatPart = float32x4_t;
using DoublePart = float64x2_t;
#define ACCEL_SLEEF_FLOAT(name) Sleef_##name##f4_u10
#define ACCEL_SLEEF_DOUBLE(name) Sleef_##name##d2_u10
#else  // no vector unit SLEEF knows: its scalar functions, one lane at a time
using FloatPart = float;
using DoublePart = double;
#define ACCEL_SLEEF_FLOAT(name) Sleef_##name##f_u10
#define ACCEL_SLEEF_DOUBLE(name) Sleef_##name##_u10
#endif

#define ACCEL_MATH_VECTOR_FUNCTION(name)                                                         \
  inline MathVector<float> name(MathVector<float> x) {                                           \
    return in_parts<FloatPart>(x, [](FloatPart part) { return ACCEL_SLEEF_FLOAT(name)(part); }); \
  }                                                                                              \
  inline MathVector<double> name(MathVector<double> x) {                                         \
    return in_parts<DoublePart>(x,                                                               \
                                [](DoublePart part) { return ACCEL_SLEEF_DOUBLE(name)(part); }); \
  }

ACCEL_MATH_VECTOR_FUNCTION(exp)
ACCEL_MATH_VECTOR_FUNCTION(log)
ACCEL_MATH_VECTOR_FUNCTION(sin)
ACCEL_MATH_VECTOR_FUNCTION(cos)
ACCEL_MATH_VECTOR_FUNCTION(tanh)
ACCEL_MATH_VECTOR_FUNCTION(erf)

#undef ACCEL_MATH_VECTOR_FUNCTION
#undef ACCEL_SLEEF_FLOAT
#undef ACCEL_SLEEF_DOUBLE

}  // namespace accel::cpu::simd
