// linalg.matrix_power (repeated squaring), multi_dot (the chain multiplied in its cheapest
// order, found by dynamic programming over the split points) and vecdot.
#include <limits>
#include <vector>

#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

namespace {

// The product of matrices[i..j], split where `split` says.
Tensor chain_product(const std::vector<Tensor>& matrices,
                     const std::vector<std::vector<size_t>>& split, size_t i, size_t j) {
  if (i == j) return matrices[i];
  const size_t k = split[i][j];
  return matmul(chain_product(matrices, split, i, k), chain_product(matrices, split, k + 1, j));
}

}  // namespace

Tensor matrix_power(const Tensor& a, int64_t n) {
  constexpr const char* op = "linalg.matrix_power";
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(a.dim() >= 2 && a.size(-1) == a.size(-2), op,
              "expected square matrices [..., n, n], got shape {}", a.sizes());
  if (n == 0)
    return linalg_support::expand_batch(eye(a.size(-1), a.options()), linalg_support::batch_dims(a))
        .clone();
  Tensor base = n < 0 ? inv(a) : a;
  uint64_t remaining = n < 0 ? -static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  Tensor result;
  while (true) {
    if (remaining & 1) result = result.defined() ? matmul(result, base) : base;
    remaining >>= 1;
    if (remaining == 0) return result;
    base = matmul(base, base);
  }
}

Tensor multi_dot(TensorList tensors) {
  constexpr const char* op = "linalg.multi_dot";
  const size_t count = tensors.size();
  ACCEL_CHECK(count >= 2, op, "expected at least 2 tensors, got {}", count);
  std::vector<Tensor> matrices(tensors.begin(), tensors.end());
  for (size_t i = 0; i < count; ++i) {
    ACCEL_CHECK(matrices[i].defined(), op, "tensor {} is undefined", i);
    const bool may_be_vector = i == 0 || i == count - 1;
    ACCEL_CHECK(matrices[i].dim() == 2 || (may_be_vector && matrices[i].dim() == 1), op,
                "tensor {} must be 2-D{}, got shape {}", i, may_be_vector ? " or 1-D" : "",
                matrices[i].sizes());
  }
  const bool row_first = matrices.front().dim() == 1, column_last = matrices.back().dim() == 1;
  if (row_first) matrices.front() = matrices.front().unsqueeze(0);
  if (column_last) matrices.back() = matrices.back().unsqueeze(-1);
  // dims[i] x dims[i + 1] is the shape of matrix i.
  std::vector<int64_t> dims = {matrices[0].size(0), matrices[0].size(1)};
  for (size_t i = 1; i < count; ++i) {
    ACCEL_CHECK(matrices[i].size(0) == dims.back(), op,
                "tensors {} and {} cannot be multiplied (shapes {} and {})", i - 1, i,
                tensors[i - 1].sizes(), tensors[i].sizes());
    dims.push_back(matrices[i].size(1));
  }
  // cost[i][j]: the fewest multiply-adds for matrices i..j; split[i][j]: the last product's split.
  std::vector<std::vector<int64_t>> cost(count, std::vector<int64_t>(count, 0));
  std::vector<std::vector<size_t>> split(count, std::vector<size_t>(count, 0));
  for (size_t length = 1; length < count; ++length) {
    for (size_t i = 0; i + length < count; ++i) {
      const size_t j = i + length;
      cost[i][j] = std::numeric_limits<int64_t>::max();
      for (size_t k = i; k < j; ++k) {
        const int64_t c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1];
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = k;
        }
      }
    }
  }
  Tensor product = chain_product(matrices, split, 0, count - 1);
  if (row_first) product = product.squeeze(0);
  if (column_last) product = product.squeeze(-1);
  return product;
}

Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim) {
  ACCEL_CHECK(x.defined() && y.defined(), "linalg.vecdot", "a tensor is undefined");
  return (x * y).sum({dim});
}

}  // namespace accel::linalg

namespace accel {

Tensor matrix_power(const Tensor& a, int64_t n) { return linalg::matrix_power(a, n); }
Tensor Tensor::matrix_power(int64_t n) const { return linalg::matrix_power(*this, n); }

}  // namespace accel
