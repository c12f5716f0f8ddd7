// ScalarType: the element types a tensor can hold, their sizes and names, and PyTorch's
// type-promotion table. The C++ type behind each enum value is given by ScalarTypeOf.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string_view>

#include "accel/base/half.h"

namespace accel {

enum class ScalarType : int8_t {
  Float32,
  Float64,
  Float16,
  BFloat16,
  Int64,
  Int32,
  UInt8,
  Bool,
};
inline constexpr int kNumScalarTypes = 8;

inline constexpr ScalarType kFloat32 = ScalarType::Float32;
inline constexpr ScalarType kFloat = ScalarType::Float32;
inline constexpr ScalarType kFloat64 = ScalarType::Float64;
inline constexpr ScalarType kDouble = ScalarType::Float64;
inline constexpr ScalarType kFloat16 = ScalarType::Float16;
inline constexpr ScalarType kHalf = ScalarType::Float16;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kInt64 = ScalarType::Int64;
inline constexpr ScalarType kLong = ScalarType::Int64;
inline constexpr ScalarType kInt32 = ScalarType::Int32;
inline constexpr ScalarType kInt = ScalarType::Int32;
inline constexpr ScalarType kUInt8 = ScalarType::UInt8;
inline constexpr ScalarType kByte = ScalarType::UInt8;
inline constexpr ScalarType kBool = ScalarType::Bool;

constexpr int64_t element_size(ScalarType t) {
  constexpr int64_t sizes[] = {4, 8, 2, 2, 8, 4, 1, 1};
  return sizes[static_cast<int>(t)];
}

// PyTorch's spelling: "float32", "int64", ...
std::string_view to_string(ScalarType t);
std::ostream& operator<<(std::ostream& out, ScalarType t);

constexpr bool is_floating_point(ScalarType t) {
  return t == kFloat32 || t == kFloat64 || t == kFloat16 || t == kBFloat16;
}
constexpr bool is_integral(ScalarType t, bool include_bool) {
  return t == kInt64 || t == kInt32 || t == kUInt8 || (include_bool && t == kBool);
}

// The largest finite value of a floating type (torch.finfo(dtype).max).
constexpr double largest_finite(ScalarType floating) {
  switch (floating) {
    case ScalarType::Float16:
      return 65504.0;
    case ScalarType::BFloat16:
      return 3.3895313892515355e38;
    case ScalarType::Float32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

// The smallest type both a and b convert to without loss of category (torch.promote_types).
ScalarType promote_types(ScalarType a, ScalarType b);

// Dtype of a tensor made from a C++ number when none is given (torch.get_default_dtype()).
inline constexpr ScalarType kDefaultFloat = kFloat32;

template <typename T>
struct CppTypeToScalarType;
#define ACCEL_SCALAR_TYPE_PAIR(cpp, st)                 \
  template <>                                           \
  struct CppTypeToScalarType<cpp> {                     \
    static constexpr ScalarType value = ScalarType::st; \
  };
ACCEL_SCALAR_TYPE_PAIR(float, Float32)
ACCEL_SCALAR_TYPE_PAIR(double, Float64)
ACCEL_SCALAR_TYPE_PAIR(Half, Float16)
ACCEL_SCALAR_TYPE_PAIR(BFloat16, BFloat16)
ACCEL_SCALAR_TYPE_PAIR(int64_t, Int64)
ACCEL_SCALAR_TYPE_PAIR(int32_t, Int32)
ACCEL_SCALAR_TYPE_PAIR(uint8_t, UInt8)
ACCEL_SCALAR_TYPE_PAIR(bool, Bool)
#undef ACCEL_SCALAR_TYPE_PAIR

template <typename T>
inline constexpr ScalarType scalar_type_of = CppTypeToScalarType<T>::value;

}  // namespace accel

template <>
struct fmt::formatter<accel::ScalarType> : fmt::formatter<std::string_view> {
  auto format(accel::ScalarType t, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(accel::to_string(t), ctx);
  }
};
