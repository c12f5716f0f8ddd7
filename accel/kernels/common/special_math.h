// Special functions the unary ops need beyond libm, written once for the CPU and CUDA in the
// accumulate type (float or double): log-gamma without the global sign that libm's lgamma
// writes (a data race between threads), digamma and trigamma (the recurrence up to where the
// asymptotic series in Bernoulli numbers is accurate, the reflection formula below zero: the
// series PyTorch evaluates, so values agree with it), and erfinv (an initial guess refined by
// Newton steps).
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "accel/base/macros.h"

namespace accel::math {

template <typename T>
ACCEL_INLINE T log_gamma(T x) {
#ifdef __CUDA_ARCH__
  return lgamma(x);
#else
  int sign = 0;
  if constexpr (std::is_same_v<T, float>) {
    return lgammaf_r(x, &sign);
  } else {
    return lgamma_r(x, &sign);
  }
#endif
}

template <typename T>
inline constexpr T kPi = T(3.14159265358979323846);

// digamma(x) = d/dx log(gamma(x)): -inf at +0 (+inf at -0), NaN at the negative integers.
template <typename T>
ACCEL_INLINE T digamma_value(T x) {
  if (x == T(0)) return std::copysign(std::numeric_limits<T>::infinity(), -x);
  T result = 0;
  if (x < T(0)) {
    if (x == std::trunc(x)) return std::numeric_limits<T>::quiet_NaN();
    // digamma(x) = digamma(1 - x) - pi / tan(pi x), tan taken of x's fractional part (tan has
    // period pi), which keeps its argument small.
    result = -kPi<T> / std::tan(kPi<T> * (x - std::trunc(x)));
    x = T(1) - x;
  }
  // digamma(x) = digamma(x + 1) - 1 / x
  while (x < T(10)) {
    result -= T(1) / x;
    x += T(1);
  }
  if (x == T(10)) return result + T(2.25175258906672110764);  // digamma(10)
  // digamma(x) ~ log(x) - 1 / (2x) - sum_k B_2k / (2k x^2k): terms up to k = 7.
  T series = 0;
  if (x < T(1e17)) {
    const T z = T(1) / (x * x);
    series = z * (T(1.0 / 12) +
                  z * (T(-1.0 / 120) +
                       z * (T(1.0 / 252) +
                            z * (T(-1.0 / 240) +
                                 z * (T(1.0 / 132) + z * (T(-691.0 / 32760) + z * T(1.0 / 12)))))));
  }
  return result + std::log(x) - T(0.5) / x - series;
}

// trigamma(x) = d/dx digamma(x).
template <typename T>
ACCEL_INLINE T trigamma_value(T x) {
  T sign = 1, result = 0;
  if (x < T(0.5)) {
    // trigamma(x) = pi^2 / sin^2(pi x) - trigamma(1 - x)
    sign = -1;
    const T s = std::sin(kPi<T> * x);
    result -= kPi<T> * kPi<T> / (s * s);
    x = T(1) - x;
  }
  // trigamma(x) = trigamma(x + 1) + 1 / x^2, six times
  for (int i = 0; i < 6; ++i) {
    result += T(1) / (x * x);
    x += T(1);
  }
  // trigamma(x) ~ 1 / x + 1 / (2x^2) + sum_k B_2k / x^(2k+1): terms up to k = 3.
  const T z = T(1) / (x * x);
  result += (T(1) + T(1) / (T(2) * x) + z * (T(1.0 / 6) - z * (T(1.0 / 30) - z * T(1.0 / 42)))) / x;
  return sign * result;
}

// erfinv(y): the x with erf(x) = y; +-inf at +-1, NaN outside [-1, 1].
template <typename T>
ACCEL_INLINE T erfinv_value(T y) {
  const T a = std::fabs(y);
  if (!(a < T(1))) {
    return a == T(1) ? std::copysign(std::numeric_limits<T>::infinity(), y)
                     : std::numeric_limits<T>::quiet_NaN();
  }
  // The initial guess: Giles' single-precision approximation ("Approximating the erfinv
  // function", 2010) in w = -log(1 - a^2) < 16, beyond it the asymptote of erfc:
  // erfc(x) ~ exp(-x^2) / (x sqrt(pi)).
  T w = -std::log((T(1) - a) * (T(1) + a));
  T x;
  if (w < T(5)) {
    w -= T(2.5);
    T p = T(2.81022636e-08);
    p = T(3.43273939e-07) + p * w;
    p = T(-3.5233877e-06) + p * w;
    p = T(-4.39150654e-06) + p * w;
    p = T(0.00021858087) + p * w;
    p = T(-0.00125372503) + p * w;
    p = T(-0.00417768164) + p * w;
    p = T(0.246640727) + p * w;
    p = T(1.50140941) + p * w;
    x = p * a;
  } else if (w < T(16)) {
    w = std::sqrt(w) - T(3);
    T p = T(-0.000200214257);
    p = T(0.000100950558) + p * w;
    p = T(0.00134934322) + p * w;
    p = T(-0.00367342844) + p * w;
    p = T(0.00573950773) + p * w;
    p = T(-0.0076224613) + p * w;
    p = T(0.00943887047) + p * w;
    p = T(1.00167406) + p * w;
    p = T(2.83297682) + p * w;
    x = p * a;
  } else {
    const T log_tail = -std::log(T(1) - a);
    x = std::sqrt(log_tail - std::log(std::sqrt(kPi<T> * log_tail)));
  }
  // Newton steps on erf(x) = a near zero; in the tail on log(erfc(x)) = log(1 - a), which is
  // nearly linear where erfc falls steeply and keeps 1 - a's relative precision.
  const T two_over_sqrt_pi = T(1.1283791670955126);
  for (int step = 0; step < 3; ++step) {
    const T slope = two_over_sqrt_pi * std::exp(-x * x);  // erf'(x)
    if (a <= T(0.5)) {
      x -= (std::erf(x) - a) / slope;
    } else {
      const T tail = std::erfc(x);
      x += (std::log(tail) - std::log(T(1) - a)) * tail / slope;
    }
  }
  return std::copysign(x, y);
}

}  // namespace accel::math
