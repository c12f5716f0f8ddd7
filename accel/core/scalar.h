// Scalar: a C++ number passed to an op (t + 2, t.fill_(0.5)). Like a Python number in
// PyTorch it takes part in type promotion only by category: float32 + 2.5 stays float32,
// int64 + 2.5 becomes the default float type.
#pragma once

#include <concepts>
#include <cstdint>

#include "accel/base/half.h"
#include "accel/base/scalar_type.h"

namespace accel {

class Scalar {
 public:
  enum class Kind : int8_t { Float, Int, Bool };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool), i_(v) {}
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

  template <typename T>
  T to() const {
    if (kind_ == Kind::Float) return static_cast<T>(static_cast<acc_t<T>>(d_));
    return static_cast<T>(static_cast<acc_t<T>>(i_));
  }
  double to_double() const { return kind_ == Kind::Float ? d_ : static_cast<double>(i_); }

  // The dtype torch.tensor(value) would get.
  ScalarType natural_type() const {
    return kind_ == Kind::Float ? kDefaultFloat : kind_ == Kind::Int ? kInt64 : kBool;
  }

 private:
  Kind kind_;
  union {
    double d_;
    int64_t i_;
  };
};

}  // namespace accel
