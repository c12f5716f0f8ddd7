// Matrix products on the GPU through cuBLASLt (cuBLAS for float64): operands read in place
// (kernels/common/matrix_operand.h), float16/bfloat16 taken as they are and accumulated in
// float32, float32 in full precision unless TF32 is allowed (contract in kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/int_array_ref.h"
#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/matrix_operand.h"

namespace accel::cuda {

void gemm(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
          const MatrixOperand& a, const MatrixOperand& b, void* out, const Stream& stream);

// torch.backends.cuda.matmul.allow_tf32: float32 products may use TF32 tensor cores (off by
// default, as in PyTorch).
void set_allow_tf32(bool allow);
bool allow_tf32();

}  // namespace accel::cuda
