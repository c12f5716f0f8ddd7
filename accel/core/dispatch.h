// Dtype dispatch: calls a generic lambda with a value of the C++ element type of a runtime
// ScalarType, e.g.  dispatch_all(t.dtype(), "exp", [&]<typename T>() { kernel<T>(...); });
// Each helper names the set of dtypes it accepts; any other dtype is an accel::Error naming
// the op, so an op never runs on a type it does not support.
#pragma once

#include "accel/core/error.h"
#include "accel/core/half.h"
#include "accel/core/scalar_type.h"

namespace accel {

#define ACCEL_DISPATCH_CASE(enum_value, cpp_type) \
  case ScalarType::enum_value:                    \
    return f.template operator()<cpp_type>();

template <typename F>
decltype(auto) dispatch_all(ScalarType t, const char* op, F&& f) {
  switch (t) {
    ACCEL_DISPATCH_CASE(Float32, float)
    ACCEL_DISPATCH_CASE(Float64, double)
    ACCEL_DISPATCH_CASE(Float16, Half)
    ACCEL_DISPATCH_CASE(BFloat16, BFloat16)
    ACCEL_DISPATCH_CASE(Int64, int64_t)
    ACCEL_DISPATCH_CASE(Int32, int32_t)
    ACCEL_DISPATCH_CASE(UInt8, uint8_t)
    ACCEL_DISPATCH_CASE(Bool, bool)
  }
  fail(op, "unsupported dtype {}", t);
}

template <typename F>
decltype(auto) dispatch_numeric(ScalarType t, const char* op, F&& f) {  // all but bool
  switch (t) {
    ACCEL_DISPATCH_CASE(Float32, float)
    ACCEL_DISPATCH_CASE(Float64, double)
    ACCEL_DISPATCH_CASE(Float16, Half)
    ACCEL_DISPATCH_CASE(BFloat16, BFloat16)
    ACCEL_DISPATCH_CASE(Int64, int64_t)
    ACCEL_DISPATCH_CASE(Int32, int32_t)
    ACCEL_DISPATCH_CASE(UInt8, uint8_t)
    default:
      break;
  }
  fail(op, "not implemented for dtype {}", t);
}

template <typename F>
decltype(auto) dispatch_floating(ScalarType t, const char* op, F&& f) {
  switch (t) {
    ACCEL_DISPATCH_CASE(Float32, float)
    ACCEL_DISPATCH_CASE(Float64, double)
    ACCEL_DISPATCH_CASE(Float16, Half)
    ACCEL_DISPATCH_CASE(BFloat16, BFloat16)
    default:
      break;
  }
  fail(op, "expected a floating point tensor, got {}", t);
}

#undef ACCEL_DISPATCH_CASE

}  // namespace accel
