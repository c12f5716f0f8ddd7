// Vector norms over dims (torch.norm / linalg.vector_norm) and dot. The 1, inf and 0 norms
// are compositions of abs, amax/amin and sums; the other p have their own backward so that, as
// in PyTorch, an all-zero slice passes a zero gradient instead of 0 * inf = NaN.
#include <cmath>
#include <limits>

#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

// sqrt(sum(a * a)) over dims, without the squares in memory.
Tensor two_norm(const Tensor& a, IntArrayRef dims, bool keepdim) {
  const ReducePlan plan = plan_reduction(a, dims, keepdim, "norm");
  Tensor out = empty(plan.out_sizes, a.options());
  backend(a.device())
      .two_norm(a.dtype(), plan.input.data_ptr(), out.data_ptr(), plan.shape,
                current_stream(a.device()));
  return out;
}

}  // namespace

Tensor norm(const Tensor& a, const Scalar& p) { return norm(a, p, {}, false); }

Tensor norm(const Tensor& a, const Scalar& order, IntArrayRef dims, bool keepdim) {
  constexpr const char* op = "norm";
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(a.is_floating_point(), op, "expected a floating point tensor, got {}", a.dtype());
  const double p = order.to_double();
  ACCEL_CHECK(!std::isnan(p), op, "the order p is NaN");
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (p == inf) return abs(a).amax(dims, keepdim);
  if (p == -inf) return abs(a).amin(dims, keepdim);
  if (p == 0) return sum(ne(a, 0), dims, keepdim, a.dtype());
  if (p == 1) return abs(a).sum(dims, keepdim);
  Tensor out;
  {
    NoGradGuard forward_only;
    out = p == 2 ? two_norm(a, dims, keepdim) : sum(abs(a).pow(p), dims, keepdim).pow(1 / p);
  }
  if (autograd::should_record(a)) {
    // The reduced dims kept as 1, so the norm and its gradient broadcast against a.
    DimVector kept(a.sizes());
    for (int64_t d = 0; d < a.dim(); ++d) {
      bool reduced = dims.empty();
      for (int64_t dim : dims) reduced = reduced || wrap_dim(dim, a.dim(), op) == d;
      if (reduced) kept[static_cast<size_t>(d)] = 1;
    }
    autograd::record(op, {a}, out,
                     [p, kept, saved_a = SavedTensor(a), saved_out = SavedTensor(out)](
                         const Tensor& grad, GradInputs& in) {
                       const Tensor x = saved_a.get();
                       const Tensor n = saved_out.get().reshape(kept);
                       const Tensor g = grad.reshape(kept);
                       // d|x|_p/dx = x |x|^(p-2) / |x|_p^(p-1), 0 where x is 0 or the norm is.
                       const Tensor slope =
                           p == 2 ? x / n
                                  : where(eq(x, 0), 0, x * abs(x).pow(p - 2)) / n.pow(p - 1);
                       in[0] = where(eq(n, 0), 0, g * slope);
                     });
  }
  return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
  constexpr const char* op = "dot";
  ACCEL_CHECK(a.defined() && b.defined(), op, "a tensor is undefined");
  ACCEL_CHECK(a.dim() == 1 && b.dim() == 1, op, "expected two 1-D tensors, got shapes {} and {}",
              a.sizes(), b.sizes());
  ACCEL_CHECK(a.numel() == b.numel(), op,
              "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same "
              "number of elements",
              a.numel(), b.numel());
  ACCEL_CHECK(a.dtype() == b.dtype(), op,
              "expected both vectors to have the same dtype, got {} and {}", a.dtype(), b.dtype());
  return matmul(a, b);
}

Tensor Tensor::norm(const Scalar& p) const { return accel::norm(*this, p); }
Tensor Tensor::norm(const Scalar& p, IntArrayRef dims, bool keepdim) const {
  return accel::norm(*this, p, dims, keepdim);
}
Tensor Tensor::dot(const Tensor& other) const { return accel::dot(*this, other); }

}  // namespace accel
