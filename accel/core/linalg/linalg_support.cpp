// core/linalg's shared checks, host copies and LU factors.
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg_support {

void check_matrices(const Tensor& a, const char* op, bool square) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(a.dtype() == kFloat32 || a.dtype() == kFloat64, op,
              "expected a float32 or float64 tensor, got {}", a.dtype());
  ACCEL_CHECK(a.dim() >= 2, op,
              "expected a tensor of matrices [..., m, n] (2 or more dims), got shape {}",
              a.sizes());
  ACCEL_CHECK(!square || a.size(-1) == a.size(-2), op,
              "expected square matrices [..., n, n], got shape {}", a.sizes());
}

void check_same_dtype_and_device(const Tensor& a, const Tensor& b, const char* op) {
  ACCEL_CHECK(b.defined(), op, "the second tensor is undefined");
  ACCEL_CHECK(a.dtype() == b.dtype(), op, "expected both tensors of one dtype, got {} and {}",
              a.dtype(), b.dtype());
  check_same_device(a, b, op);
}

cpu::MatrixBatch batch_shape(const Tensor& a) {
  int64_t batch = 1;
  for (int64_t d = 0; d < a.dim() - 2; ++d) batch *= a.size(d);
  return {batch, a.size(-2), a.size(-1)};
}

DimVector batch_dims(const Tensor& a) { return DimVector(a.sizes().begin(), a.sizes().end() - 2); }

DimVector matrix_sizes(const Tensor& a, int64_t rows, int64_t cols) {
  DimVector sizes = batch_dims(a);
  sizes.push_back(rows);
  sizes.push_back(cols);
  return sizes;
}

DimVector broadcast_batch_dims(const Tensor& a, const Tensor& b, const char* op) {
  return broadcast_shapes(batch_dims(a), batch_dims(b), op);
}

Tensor expand_batch(const Tensor& a, IntArrayRef batch) {
  DimVector sizes(batch.begin(), batch.end());
  sizes.push_back(a.size(-2));
  sizes.push_back(a.size(-1));
  return a.expand(sizes);
}

Tensor host_copy(const Tensor& a) {
  NoGradGuard factors_only;  // the ops record their own gradients
  Tensor copy = host_empty(a.sizes(), a.dtype());
  copy.copy_(a);
  return copy;
}

Tensor host_contiguous(const Tensor& a) {
  return a.device().is_cpu() && a.is_contiguous() ? a : host_copy(a);
}

Tensor host_empty(IntArrayRef sizes, ScalarType dtype) {
  return empty(sizes, TensorOptions(dtype));
}

Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool transpose,
                        bool unit_diagonal) {
  const Tensor x = host_copy(b);
  cpu::triangular_solve(a.dtype(), host_contiguous(a).data_ptr(), x.data_ptr(), batch_shape(x),
                        upper, transpose, unit_diagonal);
  return x.to(b.device());
}

LuFactors lu_factors(const Tensor& a) {
  const Tensor lu = host_copy(a);
  DimVector pivot_sizes(a.sizes().begin(), a.sizes().end() - 1);
  const Tensor pivots = host_empty(pivot_sizes, kInt32);
  const Tensor info = host_empty(batch_dims(a), kInt32);
  const cpu::MatrixBatch shape = batch_shape(a);
  cpu::lu_factor(a.dtype(), lu.data_ptr(), pivots.data_ptr<int32_t>(), info.data_ptr<int32_t>(),
                 shape.batch, shape.rows);
  return {lu, pivots, info};
}

Tensor LuFactors::singular() const { return ne(info, 0); }

void LuFactors::check_invertible(const char* op) const {
  check_batch_elements<int32_t>(info.reshape({-1}), op, [](int32_t element) {
    return fmt::format(
        "the diagonal element {} of U is zero: the matrix is singular and cannot be inverted",
        element);
  });
}

Tensor LuFactors::solve(const Tensor& b, bool transpose) const {
  const Tensor x = host_copy(b);
  cpu::lu_solve(lu.dtype(), lu.data_ptr(), pivots.data_ptr<int32_t>(), x.data_ptr(), batch_shape(x),
                transpose);
  return x;
}

Tensor permutation_matrix(const Tensor& pivots, ScalarType dtype) {
  const Tensor host_pivots = host_contiguous(pivots);
  const Tensor rows = host_empty(pivots.sizes(), kInt64);
  const int64_t n = pivots.size(-1);
  cpu::lu_row_order(host_pivots.data_ptr<int32_t>(), rows.data_ptr<int64_t>(),
                    n == 0 ? 0 : pivots.numel() / n, n);
  // Row i of P A is row rows[i] of A: P has a one at [rows[i], i].
  const Tensor columns = arange(n, TensorOptions(kInt64));
  return mT(eq(rows.unsqueeze(-1), columns).to(dtype)).to(pivots.device());
}

}  // namespace accel::linalg_support
