// linalg.vector_norm, matrix_norm and norm (which picks one of them). The matrix norms reduce over
// two dims: the induced 1- and inf-norms are the largest absolute column and row sums (-1 and -inf
// the smallest), 2 and -2 the extreme singular values, "fro" the 2-norm of the elements, "nuc" the
// sum of the singular values.
#include <cmath>

#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

namespace {

constexpr const char* kOp = "linalg.matrix_norm";

struct MatrixDims {
  int64_t rows, cols;
};

MatrixDims checked_dims(const Tensor& a, IntArrayRef dim) {
  ACCEL_CHECK(a.defined(), kOp, "the tensor is undefined");
  ACCEL_CHECK(a.is_floating_point(), kOp, "expected a floating point tensor, got {}", a.dtype());
  ACCEL_CHECK(a.dim() >= 2, kOp, "expected a tensor of matrices (2 or more dims), got shape {}",
              a.sizes());
  ACCEL_CHECK(dim.size() == 2, kOp, "dim must name two dims, got {}", dim);
  const MatrixDims dims{wrap_dim(dim[0], a.dim(), kOp), wrap_dim(dim[1], a.dim(), kOp)};
  ACCEL_CHECK(dims.rows != dims.cols, kOp, "dim must name two different dims, got {}", dim);
  return dims;
}

// The norms of empty matrices: zeros, as PyTorch's.
Tensor zero_norms(const Tensor& a, MatrixDims dims, bool keepdim) {
  return a.sum({dims.rows, dims.cols}, keepdim);
}

bool is_empty(const Tensor& a, MatrixDims dims) {
  return a.size(dims.rows) == 0 || a.size(dims.cols) == 0;
}

// The reduction of the matrices' singular values by `reduce`, shaped as a reduction over dims.
template <typename Reduce>
Tensor over_singular_values(const Tensor& a, MatrixDims dims, bool keepdim, const Reduce& reduce) {
  if (is_empty(a, dims)) return zero_norms(a, dims, keepdim);
  const Tensor reduced = reduce(svdvals(a.movedim({dims.rows, dims.cols}, {-2, -1})));
  if (!keepdim) return reduced;
  const int64_t first = std::min(dims.rows, dims.cols);
  return reduced.unsqueeze(first).unsqueeze(std::max(dims.rows, dims.cols));
}

}  // namespace

Tensor vector_norm(const Tensor& x, const Scalar& ord, IntArrayRef dim, bool keepdim) {
  return accel::norm(x, ord, dim, keepdim);
}

Tensor matrix_norm(const Tensor& a, const Scalar& ord, IntArrayRef dim, bool keepdim) {
  const MatrixDims dims = checked_dims(a, dim);
  const double order = ord.to_double();
  if (std::abs(order) == 2) {
    return over_singular_values(
        a, dims, keepdim, [&](const Tensor& s) { return order > 0 ? s.amax({-1}) : s.amin({-1}); });
  }
  ACCEL_CHECK(std::abs(order) == 1 || std::isinf(order), kOp,
              "ord must be 1, -1, 2, -2, inf, -inf, \"fro\" or \"nuc\", got {}", order);
  if (is_empty(a, dims)) return zero_norms(a, dims, keepdim);
  // The 1-norms sum down the columns (over the rows dim), then take the extreme column.
  const bool columns = std::abs(order) == 1;
  const int64_t summed = columns ? dims.rows : dims.cols;
  const int64_t across = columns ? dims.cols : dims.rows;
  const Tensor sums = abs(a).sum({summed}, true);
  const Tensor extreme = order > 0 ? sums.amax({across}, true) : sums.amin({across}, true);
  if (keepdim) return extreme;
  return extreme.squeeze(std::max(dims.rows, dims.cols)).squeeze(std::min(dims.rows, dims.cols));
}

Tensor matrix_norm(const Tensor& a, std::string_view ord, IntArrayRef dim, bool keepdim) {
  const MatrixDims dims = checked_dims(a, dim);
  if (ord == "fro") return accel::norm(a, 2, {dims.rows, dims.cols}, keepdim);
  ACCEL_CHECK(ord == "nuc", kOp, "ord must be \"fro\", \"nuc\" or a number, got \"{}\"", ord);
  return over_singular_values(a, dims, keepdim, [](const Tensor& s) { return s.sum({-1}); });
}

Tensor norm(const Tensor& x, std::optional<Scalar> ord, IntArrayRef dim, bool keepdim) {
  constexpr const char* op = "linalg.norm";
  ACCEL_CHECK(x.defined(), op, "the tensor is undefined");
  // Without ord: the 2-norm of the elements (of matrices, their Frobenius norm).
  if (!ord) return accel::norm(x, 2, dim, keepdim);
  if (dim.size() == 2) return matrix_norm(x, *ord, dim, keepdim);
  if (dim.empty() && x.dim() == 2) return matrix_norm(x, *ord, {-2, -1}, keepdim);
  ACCEL_CHECK(dim.size() == 1 || (dim.empty() && x.dim() == 1), op,
              "with a numeric ord, dim must name one or two dims, or the input be 1-D or 2-D; "
              "got dim {} for shape {}",
              dim, x.sizes());
  return vector_norm(x, *ord, dim, keepdim);
}

Tensor norm(const Tensor& x, std::string_view ord, IntArrayRef dim, bool keepdim) {
  constexpr const char* op = "linalg.norm";
  ACCEL_CHECK(x.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(dim.size() == 2 || (dim.empty() && x.dim() == 2), op,
              "ord \"{}\" is a matrix norm: dim must name two dims, or the input be 2-D; got dim "
              "{} for shape {}",
              ord, dim, x.sizes());
  if (dim.empty()) return matrix_norm(x, ord, {-2, -1}, keepdim);
  return matrix_norm(x, ord, dim, keepdim);
}

}  // namespace accel::linalg
