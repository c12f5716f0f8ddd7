// Scalar's conversion error, out of line so that the header needs no formatting.
#include "accel/core/scalar.h"

#include "accel/base/error.h"

namespace accel {

void Scalar::fail_overflow(const char* op, ScalarType type) const {
  if (kind_ == Kind::Float)
    fail(op, "value {} cannot be converted to {} without overflow", d_, type);
  fail(op, "value {} cannot be converted to {} without overflow", i_, type);
}

}  // namespace accel
