// What core/linalg's ops share: their input checks, the host copies the CPU factorizations
// read and write (a CUDA tensor's factors are computed there and copied back), the transposes
// and batch shapes of matrices, and the report of a kernel's failing batch element.
#pragma once

#include "accel/base/small_vector.h"
#include "accel/core/ops/op_support.h"
#include "accel/kernels/cpu/linalg.h"

namespace accel::linalg_support {

// a is a defined float32/float64 tensor of matrices [..., m, n] (square ones when `square`).
void check_matrices(const Tensor& a, const char* op, bool square);
// a and b have one dtype and device.
void check_same_dtype_and_device(const Tensor& a, const Tensor& b, const char* op);

// The last two dims swapped (a view).
inline Tensor mT(const Tensor& a) { return a.transpose(-2, -1); }
// The batch of [..., m, n] matrices as kernels see it.
cpu::MatrixBatch batch_shape(const Tensor& a);
// a's leading (batch) dims.
DimVector batch_dims(const Tensor& a);
// a's batch dims followed by rows and cols.
DimVector matrix_sizes(const Tensor& a, int64_t rows, int64_t cols);
// The batch dims of a and b broadcast together.
DimVector broadcast_batch_dims(const Tensor& a, const Tensor& b, const char* op);
// a expanded to `batch` leading dims and its own last two.
Tensor expand_batch(const Tensor& a, IntArrayRef batch);

// A contiguous copy of a in host memory, which a kernel may overwrite (not part of the graph).
Tensor host_copy(const Tensor& a);
// a itself when it is contiguous in host memory, else host_copy(a): for kernels that only read.
Tensor host_contiguous(const Tensor& a);
// An uninitialized host tensor.
Tensor host_empty(IntArrayRef sizes, ScalarType dtype);
// An error naming `op` and the first batch element whose flag is set (`failed` on the host),
// worded by `why` (given that element's flag value), when any is.
template <typename Flag, typename Why>
void check_batch_elements(const Tensor& failed, const char* op, const Why& why) {
  const Flag* flags = failed.data_ptr<Flag>();
  for (int64_t i = 0; i < failed.numel(); ++i) {
    if (flags[i]) {
      const std::string message = why(flags[i]);
      if (failed.numel() == 1) fail(op, "{}", message);
      fail(op, "(batch element {}) {}", i, message);
    }
  }
}

// op(A)⁻¹ b for triangular A (cpu::triangular_solve) on the host, returned on b's device; A and b
// have one batch shape (A may be on the host or b's device). No gradient.
Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool transpose,
                        bool unit_diagonal);

// The LU factors of square A on the host (cpu::lu_factor) and the solves from them.
struct LuFactors {
  Tensor lu;      // [..., n, n], host
  Tensor pivots;  // [..., n], int32, host
  // [...], int32, host: the first zero on U's diagonal (1-based), or 0; undefined for factors
  // that came from lu_factor's caller.
  Tensor info;

  // The first batch element with a zero on U's diagonal is an error naming `op`.
  void check_invertible(const char* op) const;
  // Whether U's diagonal holds a zero, per batch element (host, bool).
  Tensor singular() const;
  // A⁻¹ b (A⁻ᵀ b when `transpose`) for b [..., n, k] with the factors' batch dims, on the host.
  Tensor solve(const Tensor& b, bool transpose) const;
};
LuFactors lu_factors(const Tensor& a);
// P with A = P L U for lu_factor's pivots (on the pivots' device), of `dtype`.
Tensor permutation_matrix(const Tensor& pivots, ScalarType dtype);

}  // namespace accel::linalg_support
