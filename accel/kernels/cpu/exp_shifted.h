// exp of a term shifted by its row's maximum (x - max, or x - logsumexp), written so that the
// loops of softmax, logsumexp and cross-entropy vectorize where std::exp is a libm call per
// element, on floats or on simd_vector.h's vectors of them. float only: float64 keeps std::exp,
// whose results PyTorch's fixtures pin to 1e-10.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

// For x <= 0 (or inf, or NaN): Cephes' range reduction x = n ln2 + r and degree-6 polynomial,
// within 2 ulp of std::exp. Results below FLT_MIN flush to 0, and x > 88.37 gives inf. V: float,
// or a simd::Vector<float>, computed lane by lane with the same operations (the same bits).
// (Inlined always: a loop calling it must see the formula to vectorize it.)
template <typename V>
[[gnu::always_inline]] inline V exp_shifted_lanes(V x) {
  const auto all = [](float value) { return V{} + value; };  // value in every lane
  constexpr float lo = -87.3365447f;                         // exp(lo) = FLT_MIN
  constexpr float hi = 88.3762626f;                          // 2^n stays a normal float up to here
  V xc = x > lo ? x : all(lo);  // NaN becomes lo here and is restored at the end
  xc = xc < hi ? xc : all(hi);
  // n = round(xc / ln2) by the add-and-subtract trick, which vectorizes where floor does not.
  const V n = (xc * 1.44269504088896341f + 12582912.f) - 12582912.f;
  const V r = (xc - n * 0.693359375f) - n * -2.12194440e-4f;  // ln2 in two parts
  V p = all(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const V y = (p * r) * r + r + 1.0f;
  V two_n;  // 2^n, its exponent field written directly
  if constexpr (std::is_same_v<V, float>) {
    two_n = std::bit_cast<float>(static_cast<uint32_t>(static_cast<int32_t>(n) + 127) << 23);
  } else {
    two_n = std::bit_cast<V>((__builtin_convertvector(n, simd::Vector<int32_t>) + 127) << 23);
  }
  const V e =
      x > hi ? all(std::numeric_limits<float>::infinity()) : (x < lo ? all(0.f) : y * two_n);
  return x != x ? x : e;
}
inline float exp_shifted(float x) { return exp_shifted_lanes(x); }
inline simd::Vector<float> exp_shifted(simd::Vector<float> x) { return exp_shifted_lanes(x); }
inline double exp_shifted(double x) { return std::exp(x); }

}  // namespace accel::cpu
