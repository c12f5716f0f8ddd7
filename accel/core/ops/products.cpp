// outer, kron, addmm / baddbmm, tensordot and cross composed from mul, mm / bmm, permute /
// reshape and narrow, whose gradients and devices they inherit.
#include <algorithm>
#include <vector>

#include "accel/core/autograd/function.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel {

Tensor outer(const Tensor& a, const Tensor& b) {
  ACCEL_CHECK(a.dim() == 1 && b.dim() == 1, "outer", "expected two 1-D tensors, got {} and {}",
              a.sizes(), b.sizes());
  return mul(a.unsqueeze(1), b.unsqueeze(0));
}

Tensor kron(const Tensor& a, const Tensor& b) {
  const int64_t dims = std::max(a.dim(), b.dim());
  // a's dims interleaved with b's as [a0, 1, a1, 1, ...] * [1, b0, 1, b1, ...], then each pair
  // merged: element (i, j) of a pair is a's i-th block holding b's j-th element.
  DimVector a_shape, b_shape, out_shape;
  for (int64_t d = 0; d < dims; ++d) {
    const int64_t a_size = d < dims - a.dim() ? 1 : a.size(d - (dims - a.dim()));
    const int64_t b_size = d < dims - b.dim() ? 1 : b.size(d - (dims - b.dim()));
    a_shape.push_back(a_size);
    a_shape.push_back(1);
    b_shape.push_back(1);
    b_shape.push_back(b_size);
    out_shape.push_back(a_size * b_size);
  }
  return mul(a.reshape(a_shape), b.reshape(b_shape)).reshape(out_shape);
}

namespace {

// beta * a + alpha * product; a broadcasts to the product and is ignored when beta is 0.
Tensor scaled_sum(const Tensor& a, const Tensor& product, const Scalar& beta, const Scalar& alpha,
                  const char* op) {
  const DimVector shape = broadcast_shapes(a.sizes(), product.sizes(), op);
  ACCEL_CHECK(IntArrayRef(shape) == product.sizes(), op,
              "expected the input {} to broadcast to the product's shape {}", a.sizes(),
              product.sizes());
  const Tensor scaled = alpha.to_double() == 1.0 ? product : mul(product, alpha);
  if (beta.to_double() == 0.0) {
    // a's values (NaN included) are ignored; its gradient is zeros, as PyTorch's.
    if (!autograd::should_record(a)) return scaled;
    return where(full({}, true, TensorOptions(kBool).device(a.device())), scaled, a);
  }
  return add(beta.to_double() == 1.0 ? a : mul(a, beta), scaled);
}

}  // namespace

Tensor addmm(const Tensor& a, const Tensor& m1, const Tensor& m2, const Scalar& beta,
             const Scalar& alpha) {
  return scaled_sum(a, mm(m1, m2), beta, alpha, "addmm");
}

Tensor baddbmm(const Tensor& a, const Tensor& b1, const Tensor& b2, const Scalar& beta,
               const Scalar& alpha) {
  return scaled_sum(a, bmm(b1, b2), beta, alpha, "baddbmm");
}

Tensor tensordot(const Tensor& a, const Tensor& b, IntArrayRef dims_a, IntArrayRef dims_b) {
  ACCEL_CHECK(dims_a.size() == dims_b.size(), "tensordot",
              "expected as many dims of a {} as of b {}", dims_a, dims_b);
  std::vector<bool> contracted_a(static_cast<size_t>(a.dim())),
      contracted_b(static_cast<size_t>(b.dim()));
  DimVector order_a, order_b, free_shape;
  int64_t inner = 1;
  for (size_t i = 0; i < dims_a.size(); ++i) {
    const int64_t da = wrap_dim(dims_a[i], a.dim(), "tensordot");
    const int64_t db = wrap_dim(dims_b[i], b.dim(), "tensordot");
    ACCEL_CHECK(a.size(da) == b.size(db), "tensordot",
                "contracted dims must match in size: dim {} of a {} and dim {} of b {}", da,
                a.sizes(), db, b.sizes());
    ACCEL_CHECK(!contracted_a[da] && !contracted_b[db], "tensordot",
                "a dim appears twice in {} or {}", dims_a, dims_b);
    contracted_a[da] = contracted_b[db] = true;
    inner *= a.size(da);
  }
  // a as [free dims of a, contracted], b as [contracted, free dims of b].
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (contracted_a[d]) continue;
    order_a.push_back(d);
    free_shape.push_back(a.size(d));
    rows *= a.size(d);
  }
  for (size_t i = 0; i < dims_a.size(); ++i) {
    order_a.push_back(wrap_dim(dims_a[i], a.dim(), "tensordot"));
    order_b.push_back(wrap_dim(dims_b[i], b.dim(), "tensordot"));
  }
  for (int64_t d = 0; d < b.dim(); ++d) {
    if (contracted_b[d]) continue;
    order_b.push_back(d);
    free_shape.push_back(b.size(d));
    cols *= b.size(d);
  }
  const Tensor product =
      mm(a.permute(order_a).reshape({rows, inner}), b.permute(order_b).reshape({inner, cols}));
  return product.reshape(free_shape);
}

Tensor tensordot(const Tensor& a, const Tensor& b, int64_t dims) {
  ACCEL_CHECK(dims >= 0 && dims <= a.dim() && dims <= b.dim(), "tensordot",
              "cannot contract {} dims of tensors of shapes {} and {}", dims, a.sizes(), b.sizes());
  DimVector dims_a, dims_b;
  for (int64_t i = 0; i < dims; ++i) {
    dims_a.push_back(a.dim() - dims + i);
    dims_b.push_back(i);
  }
  return tensordot(a, b, dims_a, dims_b);
}

Tensor cross(const Tensor& a, const Tensor& b, int64_t dim) {
  const DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), "cross");
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cross");
  ACCEL_CHECK(shape[static_cast<size_t>(d)] == 3, "cross",
              "expected dim {} to have size 3, got shapes {} and {}", dim, a.sizes(), b.sizes());
  const Tensor x = a.expand(shape), y = b.expand(shape);
  const auto at = [d](const Tensor& t, int64_t i) { return t.narrow(d, i, 1); };
  return cat({sub(mul(at(x, 1), at(y, 2)), mul(at(x, 2), at(y, 1))),
              sub(mul(at(x, 2), at(y, 0)), mul(at(x, 0), at(y, 2))),
              sub(mul(at(x, 0), at(y, 1)), mul(at(x, 1), at(y, 0)))},
             d);
}

Tensor Tensor::outer(const Tensor& other) const { return accel::outer(*this, other); }
Tensor Tensor::kron(const Tensor& other) const { return accel::kron(*this, other); }

}  // namespace accel
