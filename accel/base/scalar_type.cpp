// Names of the scalar types and PyTorch's promotion table.
#include "accel/base/scalar_type.h"

#include <ostream>

#include "accel/base/int_array_ref.h"

namespace accel {

std::string_view to_string(ScalarType t) {
  constexpr std::string_view names[] = {"float32", "float64", "float16", "bfloat16",
                                        "int64",   "int32",   "uint8",   "bool"};
  return names[static_cast<int>(t)];
}

std::ostream& operator<<(std::ostream& out, ScalarType t) { return out << to_string(t); }
std::ostream& operator<<(std::ostream& out, IntArrayRef values) {
  return out << fmt::format("{}", values);
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  // Rows and columns in enum order: f32 f64 f16 bf16 i64 i32 u8 b1 (torch/_prims_common).
  using S = ScalarType;
  constexpr S f4 = S::Float32, f8 = S::Float64, f2 = S::Float16, bf = S::BFloat16, i8 = S::Int64,
              i4 = S::Int32, u1 = S::UInt8, b1 = S::Bool;
  constexpr S table[kNumScalarTypes][kNumScalarTypes] = {
      /* f32 */ {f4, f8, f4, f4, f4, f4, f4, f4},
      /* f64 */ {f8, f8, f8, f8, f8, f8, f8, f8},
      /* f16 */ {f4, f8, f2, f4, f2, f2, f2, f2},
      /* bf16*/ {f4, f8, f4, bf, bf, bf, bf, bf},
      /* i64 */ {f4, f8, f2, bf, i8, i8, i8, i8},
      /* i32 */ {f4, f8, f2, bf, i8, i4, i4, i4},
      /* u8  */ {f4, f8, f2, bf, i8, i4, u1, u1},
      /* bool*/ {f4, f8, f2, bf, i8, i4, u1, b1},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

}  // namespace accel
