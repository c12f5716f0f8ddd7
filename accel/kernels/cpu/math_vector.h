// The 64-byte vector the CPU's element-wise formulas compute with (16 floats or 8 doubles): the
// formulas of kernels/common/unary_math.h and activation_math.h run on it unchanged, through
// arithmetic operators, comparisons to masks and if_else, and a scalar converting to a broadcast
// vector; in_parts hands its register-sized parts to a library function, lookup_16 gathers from a
// 16-entry table. The functions on it are in vector_math.h.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// A vector of A from the kLanes elements of T at p: one load when T is A.
template <typename A, typename T>
MathVector<A> load_lanes(const T* p) {
  MathVector<A> v;
  if constexpr (std::is_same_v<T, A>) {
    std::memcpy(&v.lanes, p, sizeof v.lanes);
  } else {  // a fixed count the compiler vectorizes
    for (int64_t i = 0; i < MathVector<A>::kLanes; ++i) v.lanes[i] = static_cast<A>(p[i]);
  }
  return v;
}

// v's lanes stored at p as T: one store when T is A (GCC turns a lane-by-lane copy of the same
// type into lane extractions, which took half of tanh's time).
template <typename T, typename A>
void store_lanes(T* p, const MathVector<A>& v) {
  if constexpr (std::is_same_v<T, A>) {
    std::memcpy(p, &v.lanes, sizeof v.lanes);
  } else {
    for (int64_t i = 0; i < MathVector<A>::kLanes; ++i) p[i] = static_cast<T>(v.lanes[i]);
  }
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

}  // namespace accel::cpu::simd
