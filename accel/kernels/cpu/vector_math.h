// The functions of kernels/common/unary_math.h's and activation_math.h's formulas on the CPU's
// 64-byte vectors (math_vector.h): exp, sin, cos, sqrt, tan, the inverse and hyperbolic
// functions, log2, log10, exp2 and erfc, and log, log1p, expm1, erf and tanh of doubles, come from
// SLEEF (the vectorized libm PyTorch's CPU kernels use, within 1 ulp; erfc 1.5), one call per
// register of the widest instruction set the build targets; erf, tanh, expm1, log and log1p of
// floats are accel's own (float_math.h: faster, within 0.7-1.2 ulp). Found by argument-dependent
// lookup, so a formula that calls `exp(x)` unqualified gets std::exp for a scalar and these for a
// vector.
#pragma once

#include <sleef.h>

#include "accel/kernels/cpu/float_math.h"
#include "accel/kernels/cpu/math_vector.h"

namespace accel::cpu::simd {

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
ACCEL_MATH_VECTOR_FUNCTION(sin, u10)
ACCEL_MATH_VECTOR_FUNCTION(cos, u10)
// float versions of these five: float_math.h
ACCEL_DOUBLE_VECTOR_FUNCTION(log, u10)
ACCEL_DOUBLE_VECTOR_FUNCTION(log1p, u10)
ACCEL_DOUBLE_VECTOR_FUNCTION(expm1, u10)
ACCEL_DOUBLE_VECTOR_FUNCTION(erf, u10)
ACCEL_DOUBLE_VECTOR_FUNCTION(tanh, u10)
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

#undef ACCEL_MATH_VECTOR_FUNCTION
#undef ACCEL_DOUBLE_VECTOR_FUNCTION
#undef ACCEL_EXPAND
#undef ACCEL_DOUBLE_VECTOR_FUNCTION_OF
#undef ACCEL_FLOAT_VECTOR_FUNCTION_OF
#undef ACCEL_VECTOR_FUNCTION_OF
#undef ACCEL_SLEEF_TYPES

}  // namespace accel::cpu::simd
