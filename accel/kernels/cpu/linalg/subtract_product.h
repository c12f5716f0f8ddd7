// What the blocked factorizations and solves do to the rows they have not reached: subtract a
// product of two blocks they have, computed by accel's GEMM (threaded for one large matrix, the
// same bits on any thread count) into room the calling thread keeps (Scratch).
#pragma once

#include <cstdint>

#include "accel/kernels/common/matrix_operand.h"

namespace accel::cpu::linalg {

// out (m x n, row-major, row stride out_stride) -= a (m x k) · b (k x n). T: float or double.
template <typename T>
void subtract_product(const MatrixOperand& a, const MatrixOperand& b, int64_t m, int64_t k,
                      int64_t n, T* out, int64_t out_stride);

}  // namespace accel::cpu::linalg
