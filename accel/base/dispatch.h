// Dtype dispatch: calls a generic lambda with a value of the C++ element type of a runtime
// ScalarType, e.g.  dispatch_all(t.dtype(), "exp", [&]<typename T>() { kernel<T>(...); });
// Each helper names the set of dtypes it accepts; any other dtype is an accel::Error naming
// the op, so an op never runs on a type it does not support.
#pragma once

#include "accel/base/error.h"
#include "accel/base/half.h"
#include "accel/base/scalar_type.h"

namespace accel {

// The dtype sets, as (enum value, C++ type) lists.
#define ACCEL_FLOATING_TYPES(X) \
  X(Float32, float)             \
  X(Float64, double)            \
  X(Float16, Half)              \
  X(BFloat16, BFloat16)
#define ACCEL_INTEGER_TYPES(X) \
  X(Int64, int64_t)            \
  X(Int32, int32_t)            \
  X(UInt8, uint8_t)
#define ACCEL_NUMERIC_TYPES(X) ACCEL_FLOATING_TYPES(X) ACCEL_INTEGER_TYPES(X)
#define ACCEL_INDEX_TYPES(X) \
  X(Int64, int64_t)          \
  X(Int32, int32_t)

#define ACCEL_DISPATCH_CASE(enum_value, cpp_type) \
  case ScalarType::enum_value:                    \
    return f.template operator()<cpp_type>();
// Returns f's result for a dtype in the set TYPES; any other falls through to the code after.
#define ACCEL_DISPATCH_AMONG(t, TYPES) \
  switch (t) {                         \
    TYPES(ACCEL_DISPATCH_CASE)         \
    default:                           \
      break;                           \
  }

// Every dtype: a switch without a default, so that the compiler flags a dtype added to
// ScalarType and missing here.
template <typename F>
decltype(auto) dispatch_all(ScalarType t, const char* op, F&& f) {
  switch (t) {
    ACCEL_NUMERIC_TYPES(ACCEL_DISPATCH_CASE)
    ACCEL_DISPATCH_CASE(Bool, bool)
  }
  fail(op, "unsupported dtype {}", t);
}

template <typename F>
decltype(auto) dispatch_numeric(ScalarType t, const char* op, F&& f) {  // all but bool
  ACCEL_DISPATCH_AMONG(t, ACCEL_NUMERIC_TYPES)
  fail(op, "not implemented for dtype {}", t);
}

template <typename F>
decltype(auto) dispatch_floating(ScalarType t, const char* op, F&& f) {
  ACCEL_DISPATCH_AMONG(t, ACCEL_FLOATING_TYPES)
  fail(op, "expected a floating point tensor, got {}", t);
}

// The dtypes of an index tensor (gather, scatter_add, index_select and their range check).
template <typename F>
decltype(auto) dispatch_index(ScalarType t, const char* op, F&& f) {
  ACCEL_DISPATCH_AMONG(t, ACCEL_INDEX_TYPES)
  fail(op, "expected dtype int64 or int32 for index, got {}", t);
}

#undef ACCEL_DISPATCH_AMONG
#undef ACCEL_DISPATCH_CASE

}  // namespace accel
