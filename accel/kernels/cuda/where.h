// CUDA kernels for selection by a bool condition, and the element-wise closeness test behind
// allclose/equal (contracts in kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/loop.h"

namespace accel::cuda {

void where(ScalarType dtype, const Loop<4>& loop, const Stream& stream);
void fill_where(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when,
                const Stream& stream);
bool all_close(ScalarType dtype, const Loop<2>& loop, double rtol, double atol, bool equal_nan,
               const Stream& stream);

}  // namespace accel::cuda
