// Half (IEEE binary16) and BFloat16 scalar types, usable in host and device code.
// They store 16 bits and compute in float: conversions round to nearest-even, exactly like
// PyTorch's c10::Half / c10::BFloat16, so reduced-precision results match bit for bit. Device
// code converts with the GPU's own instructions, which round the same way; a NaN takes the
// host's bit pattern (the instructions give one canonical NaN), so the same float NaN converts
// to the same bits on both devices.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

#include "accel/base/macros.h"

namespace accel {

namespace detail {
ACCEL_INLINE uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
ACCEL_INLINE float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

ACCEL_INLINE uint16_t float_to_half_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {  // result is subnormal or zero: add 0.5 and let the FPU round
    const float magic = bits_float(0x3f000000u);  // 0.5
    const float r = bits_float(abs) + magic;
    return static_cast<uint16_t>(sign | (float_bits(r) - float_bits(magic)));
  }
  const uint32_t mant_odd = (abs >> 13) & 1u;
  const uint32_t rounded = abs + 0xc8000fffu + mant_odd;  // rebias exponent and round
  return static_cast<uint16_t>(sign | (rounded >> 13));
}

ACCEL_INLINE float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return bits_float(sign);
    const float v = static_cast<float>(mant) * bits_float(0x33800000u);  // mant * 2^-24
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

ACCEL_INLINE uint16_t float_to_bfloat16_bits(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // nan
  const uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding_bias) >> 16);
}
}  // namespace detail

struct Half {
  uint16_t bits = 0;
  Half() = default;
  ACCEL_HOST_DEVICE Half(float f) {
#if defined(__CUDA_ARCH__)
    bits = f != f ? detail::float_to_half_bits(f) : __half_as_ushort(__float2half_rn(f));
#else
    bits = detail::float_to_half_bits(f);
#endif
  }
  ACCEL_HOST_DEVICE operator float() const {
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(bits));
#else
    return detail::half_bits_to_float(bits);
#endif
  }
  static ACCEL_HOST_DEVICE Half from_bits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  ACCEL_HOST_DEVICE BFloat16(float f) {
#if defined(__CUDA_ARCH__)
    bits =
        f != f ? detail::float_to_bfloat16_bits(f) : __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
    bits = detail::float_to_bfloat16_bits(f);
#endif
  }
  ACCEL_HOST_DEVICE operator float() const {
    return detail::bits_float(static_cast<uint32_t>(bits) << 16);
  }
  static ACCEL_HOST_DEVICE BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
};

// The type arithmetic on T is carried out in: float for the 16-bit floats, T otherwise.
template <typename T>
struct AccumulateType {
  using type = T;
};
template <>
struct AccumulateType<Half> {
  using type = float;
};
template <>
struct AccumulateType<BFloat16> {
  using type = float;
};
template <typename T>
using acc_t = typename AccumulateType<T>::type;

}  // namespace accel
