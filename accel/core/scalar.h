// Scalar: a C++ number passed to an op (t + 2, t.fill_(0.5)). Like a Python number in
// PyTorch it takes part in type promotion only by category: float32 + 2.5 stays float32,
// int64 + 2.5 becomes the default float type.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "accel/base/half.h"
#include "accel/base/scalar_type.h"

namespace accel {

class Scalar {
 public:
  enum class Kind : int8_t { Float, Int, Bool };

  Scalar() : Scalar(int64_t{0}) {}
  // Exactly bool: a pointer (a string literal) must not become a Scalar through bool.
  template <std::same_as<bool> T>
  Scalar(T v) : kind_(Kind::Bool), i_(v) {}
  template <std::integral T>
  requires(!std::same_as<T, bool>) Scalar(T v) : kind_(Kind::Int), i_(static_cast<int64_t>(v)) {}
  template <std::floating_point T>
  Scalar(T v) : kind_(Kind::Float), d_(static_cast<double>(v)) {}
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}

  Kind kind() const { return kind_; }
  bool is_floating_point() const { return kind_ == Kind::Float; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_bool() const { return kind_ == Kind::Bool; }

  // The value as T, checked as LibTorch's Scalar::to<T>: an accel::Error naming `op` when it
  // does not fit T (NaN, an infinity or a number out of range for an integer type; a finite
  // number beyond the largest finite float, half or bfloat16). Floats go to integers by
  // truncation; negative integers down to -max go to an unsigned type by wrapping (fill_(-1)
  // stores 255 in uint8); bool takes nonzero as true.
  template <typename T>
  T to(const char* op = "Scalar.to") const {
    if (!fits<T>()) fail_overflow(op, scalar_type_of<T>);
    if (kind_ == Kind::Float) return static_cast<T>(static_cast<acc_t<T>>(d_));
    return static_cast<T>(static_cast<acc_t<T>>(i_));
  }
  double to_double() const { return kind_ == Kind::Float ? d_ : static_cast<double>(i_); }

  // The dtype torch.tensor(value) would get.
  ScalarType natural_type() const {
    return kind_ == Kind::Float ? kDefaultFloat : kind_ == Kind::Int ? kInt64 : kBool;
  }

 private:
  template <typename T>
  bool fits() const {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double>) {
      return true;
    } else if constexpr (std::is_integral_v<T>) {
      using Limits = std::numeric_limits<T>;
      if (kind_ == Kind::Float) {  // truncated into [lowest, max] (max + 1 is exact in double)
        return std::trunc(d_) >= static_cast<double>(Limits::lowest()) &&
               d_ < static_cast<double>(Limits::max()) + 1;
      }
      if constexpr (sizeof(T) == sizeof(int64_t)) {
        return true;
      } else if constexpr (std::is_unsigned_v<T>) {
        return i_ >= -static_cast<int64_t>(Limits::max()) && i_ <= Limits::max();
      } else {
        return i_ >= Limits::lowest() && i_ <= Limits::max();
      }
    } else {  // float, Half, BFloat16: inf and NaN convert, finite numbers must be in range
      constexpr double largest = std::is_same_v<T, Half>       ? 65504.0
                                 : std::is_same_v<T, BFloat16> ? 3.3895313892515355e38
                                                               : std::numeric_limits<float>::max();
      const double magnitude = std::fabs(to_double());
      return !(magnitude > largest) || magnitude == std::numeric_limits<double>::infinity();
    }
  }
  [[noreturn]] void fail_overflow(const char* op, ScalarType type) const;

  Kind kind_;
  union {
    double d_;
    int64_t i_;
  };
};

}  // namespace accel
