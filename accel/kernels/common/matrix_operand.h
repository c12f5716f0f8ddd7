// How GEMM kernels read a batch of strided matrices in place, and which layouts they accept:
// one dim unit-stride (row-major, or column-major as a transposed view is), the other
// stepping over it. BLAS libraries on every backend read exactly these layouts.
#pragma once

#include <cstdint>

#include "accel/base/int_array_ref.h"

namespace accel {

// Element (i, j) of batch entry (β0, β1, ...) lies at data + Σ βd * batch_strides[d] +
// i * row_stride + j * col_stride (strides in elements).
struct MatrixOperand {
  const void* data = nullptr;
  int64_t row_stride = 0;
  int64_t col_stride = 0;
  IntArrayRef batch_strides;  // one per batch dim; 0 where the operand is broadcast
};

// Whether a rows x cols matrix with these strides is row-major (each row unit-stride) or
// column-major (each column unit-stride). A dim of size <= 1 is never stepped over, so its
// stride does not matter.
inline bool is_row_major(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  return (col_stride == 1 || cols <= 1) && (rows <= 1 || row_stride >= cols);
}
inline bool is_column_major(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  return (row_stride == 1 || rows <= 1) && (cols <= 1 || col_stride >= rows);
}

// Whether a GEMM can read the matrix in place. Callers make any other operand contiguous.
inline bool gemm_supports(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  return is_row_major(rows, cols, row_stride, col_stride) ||
         is_column_major(rows, cols, row_stride, col_stride);
}

}  // namespace accel
