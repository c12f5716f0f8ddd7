// CPU kernels that move elements: strided copy with dtype conversion, and fill.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// out[i] = convert(in[i]) for out of dtype `out_type` and in of dtype `in_type`.
void copy(ScalarType out_type, ScalarType in_type, const Loop<2>& loop);
// out[i] = *value, where value points at one element of dtype `type`.
void fill(ScalarType type, const Loop<1>& loop, const void* value);

}  // namespace accel::cpu
