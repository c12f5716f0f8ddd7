// CPU matrix products (GEMM) over strided operands: out[β] = a[β] · b[β] for every index β
// of the batch dims, with operands read in place whether they are row-major or transposed
// (column-major) and with broadcast batch dims (stride 0). Eigen stays inside gemm.cpp.
#pragma once

#include <cstdint>

#include "accel/base/int_array_ref.h"
#include "accel/base/scalar_type.h"
#include "accel/kernels/common/matrix_operand.h"

namespace accel::cpu {

// out (contiguous [batch_sizes..., m, n]) = a [batch..., m, k] · b [batch..., k, n], all of
// dtype `dtype`: float32, float64, int64, int32 or uint8 (16-bit floats are computed in float32
// by the caller). Small products run on one thread; large ones use up to get_num_threads().
void gemm(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
          const MatrixOperand& a, const MatrixOperand& b, void* out);

}  // namespace accel::cpu
