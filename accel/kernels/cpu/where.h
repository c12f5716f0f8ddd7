// CPU kernels for selection by a bool condition (where, masked_fill) over strided operands of
// one dtype; the condition operand is always bool.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// out = condition ? a : b over Loop<4>(out, condition, a, b).
void where(ScalarType dtype, const Loop<4>& loop);
// out = condition == fill_when ? *value : x over Loop<3>(out, condition, x), where value
// points to a number stored as `dtype`.
void fill_where(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when);

}  // namespace accel::cpu
