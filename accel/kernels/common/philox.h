// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") and the
// transforms from its bits to uniform, normal and integer samples, written once for the CPU
// loops and the CUDA kernels so both backends draw the same numbers for the same state.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/macros.h"

namespace accel::random {

// 128 random bits: the output of one Philox counter block.
struct PhiloxBlock {
  uint32_t v[4];
};

// One Philox-4x32 round on the counter words c0..c3 under the round key (k0, k1); the key
// schedule adds kPhiloxWeyl0/1 to the key after each of the ten rounds.
inline constexpr uint32_t kPhiloxWeyl0 = 0x9E3779B9u, kPhiloxWeyl1 = 0xBB67AE85u;
ACCEL_INLINE void philox_round(uint32_t& c0, uint32_t& c1, uint32_t& c2, uint32_t& c3, uint32_t k0,
                               uint32_t k1) {
  const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c0;
  const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c2;
  c0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
  c1 = static_cast<uint32_t>(p1);
  c2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
  c3 = static_cast<uint32_t>(p0);
}

// Philox-4x32-10 of a 128-bit counter under a 64-bit key (low word first in both).
ACCEL_INLINE PhiloxBlock philox4x32_10(const PhiloxBlock& counter, uint64_t key) {
  PhiloxBlock c = counter;
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    philox_round(c.v[0], c.v[1], c.v[2], c.v[3], k0, k1);
    k0 += kPhiloxWeyl0;
    k1 += kPhiloxWeyl1;
  }
  return c;
}

// Where a draw starts: the key and the first counter block it may use.
struct PhiloxDraw {
  uint64_t seed = 0;
  uint64_t offset = 0;
};

// Blocks a draw of n values takes when each block yields `per_block` of them.
ACCEL_INLINE uint64_t philox_blocks(int64_t n, int per_block) {
  return static_cast<uint64_t>((n + per_block - 1) / per_block);
}

// The blocks of one draw, keeping the last one so neighbouring values that share it compute
// it once. Value i of a draw reads block i / per_block: 32-bit values take lane i % 4,
// 64-bit values the lane pair i % 2. A value depends only on (seed, offset, i), never on
// which thread asks for it.
class PhiloxCursor {
 public:
  ACCEL_INLINE explicit PhiloxCursor(PhiloxDraw draw) : draw_(draw) {}

  ACCEL_INLINE const PhiloxBlock& block(uint64_t index) {
    if (!valid_ || index != index_) {
      const uint64_t block = draw_.offset + index;
      bits_ = philox4x32_10(
          {{static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), 0u, 0u}}, draw_.seed);
      index_ = index;
      valid_ = true;
    }
    return bits_;
  }
  ACCEL_INLINE uint32_t bits32(uint64_t i) { return block(i / 4).v[i % 4]; }
  ACCEL_INLINE uint64_t bits64(uint64_t i) {
    const PhiloxBlock& b = block(i / 2);
    const uint64_t lane = 2 * (i % 2);
    return (static_cast<uint64_t>(b.v[lane + 1]) << 32) | b.v[lane];
  }

 private:
  PhiloxDraw draw_;
  PhiloxBlock bits_{};
  uint64_t index_ = 0;
  bool valid_ = false;
};

// Uniform and normal samples are computed in A (float or double): float samples take 32 bits
// (four per block), double samples 64 bits (two per block).
template <typename A>
inline constexpr int kValuesPerBlock = std::is_same_v<A, double> ? 2 : 4;

// Mantissa digits of T (numeric_limits<T>::digits): a uniform sample of T has this many
// random bits, so every value k / 2^digits is exact in T and 1 is never reached.
template <typename T>
inline constexpr int kUniformDigits = std::is_same_v<T, double>  ? 53
                                      : std::is_same_v<T, float> ? 24
                                      : std::is_same_v<T, Half>  ? 11
                                                                 : 8;  // BFloat16

// Uniform in [0, 1) with `digits` of the random bits, as PyTorch's uniform_real_distribution:
// from 64 bits for double, 32 for float.
template <typename A>
ACCEL_INLINE A uniform_from_bits(uint64_t bits, int digits) {
  if constexpr (std::is_same_v<A, double>) {
    const uint64_t mask = (uint64_t{1} << digits) - 1;
    return static_cast<double>(bits & mask) / static_cast<double>(uint64_t{1} << digits);
  } else {
    const uint32_t mask = (uint32_t{1} << digits) - 1;
    return static_cast<float>(static_cast<uint32_t>(bits) & mask) /
           static_cast<float>(uint32_t{1} << digits);
  }
}
template <typename A>
ACCEL_INLINE A uniform_at(PhiloxCursor& cursor, uint64_t i, int digits) {
  return uniform_from_bits<A>(
      std::is_same_v<A, double> ? cursor.bits64(i) : uint64_t{cursor.bits32(i)}, digits);
}

// Standard normal by Box-Muller: values 2k and 2k+1 are the cosine and sine branches of one
// pair of uniforms (u1 sets the angle, u2 the radius; log1p(-u2) never sees log(0)).
template <typename A>
ACCEL_INLINE A normal_at(PhiloxCursor& cursor, uint64_t i) {
  constexpr int digits = kUniformDigits<A>;
  const uint64_t pair = i / 2;
  const A u1 = uniform_at<A>(cursor, 2 * pair, digits);
  const A u2 = uniform_at<A>(cursor, 2 * pair + 1, digits);
  const A radius = std::sqrt(A(-2) * std::log1p(-u2));
  const A angle = A(2 * 3.14159265358979323846) * u1;
  return radius * (i % 2 == 0 ? std::cos(angle) : std::sin(angle));
}

// x * scale + shift rounded once, as a fused multiply-add: maps a uniform sample onto
// [from, to) and a standard normal one onto N(mean, std). Written out rather than left to the
// compiler, which contracts `x * scale + shift` into an fma only under some flags (GCC's
// -march=native with -ffp-contract=fast; nvcc's --fmad), so every build and device gives the
// same bits.
template <typename A>
ACCEL_INLINE A affine_sample(A x, A scale, A shift) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<A, double>) {
    return fma(x, scale, shift);
  } else {
    return fmaf(x, scale, shift);
  }
#else
  return std::fma(x, scale, shift);
#endif
}

// An integer in [low, low + range) from 64 random bits: the high half of bits * range (a
// multiplication where a modulo would divide; its bias, like a modulo's, is below range / 2^64).
ACCEL_INLINE int64_t integer_from_bits(uint64_t bits, int64_t low, uint64_t range) {
#if defined(__CUDA_ARCH__)
  const uint64_t offset = __umul64hi(bits, range);
#else
  const uint64_t offset =
      static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * range) >> 64);
#endif
  return static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
}
// The integer from value i's 64 bits (two per block).
ACCEL_INLINE int64_t integer_at(PhiloxCursor& cursor, uint64_t i, int64_t low, uint64_t range) {
  return integer_from_bits(cursor.bits64(i), low, range);
}

}  // namespace accel::random
