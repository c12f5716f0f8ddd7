// CPU matrix products (GEMM) over strided operands: out[β] = a[β] · b[β] for every index β
// of the batch dims, with operands read in place whether they are row-major or transposed
// (column-major) and with broadcast batch dims (stride 0). Eigen stays inside gemm.cpp.
#pragma once

#include <cstdint>

#include "accel/core/int_array_ref.h"
#include "accel/core/scalar_type.h"

namespace accel::cpu {

// A batch of strided matrices: element (i, j) of batch entry (β0, β1, ...) lies at
// data + Σ βd * batch_strides[d] + i * row_stride + j * col_stride (strides in elements).
struct MatrixOperand {
  const void* data = nullptr;
  int64_t row_stride = 0;
  int64_t col_stride = 0;
  IntArrayRef batch_strides;  // one per batch dim; 0 where the operand is broadcast
};

// Whether gemm can read a rows x cols matrix with these strides in place: one dim must be
// unit-stride (row-major, or column-major as a transposed view is) and the other must step
// over it. Callers make any other operand contiguous first.
bool gemm_supports(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

// out (contiguous [batch_sizes..., m, n]) = a [batch..., m, k] · b [batch..., k, n], all of
// dtype `dtype`: float32, float64, int64, int32 or uint8 (16-bit floats are computed in float32
// by the caller). Small products run on one thread; large ones use up to get_num_threads().
void gemm(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
          const MatrixOperand& a, const MatrixOperand& b, void* out);

}  // namespace accel::cpu
