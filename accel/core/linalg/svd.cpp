// linalg.svd and svdvals: the SVD on the host, and PyTorch's gradient for it. With U and Vh
// restricted to their first k = min(m, n) columns and rows, Ŝ = diag(S) and E_ij = S_j² - S_i²:
//   ∂A = U ((skew(Uᵀ∂U) Ŝ + Ŝ skew(Vᵀ∂V)) / E + diag(∂S)) Vh, skew(X) = X - Xᵀ,
// plus (I - U Uᵀ) ∂U Ŝ⁻¹ Vh for a tall A and U Ŝ⁻¹ ∂Vᵀ (I - V Vh) for a wide one (the parts of ∂U,
// ∂V outside the factors' spans). Infinite where singular values repeat, as PyTorch's.
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::GradVector;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// (U, S, Vh) — U and Vh undefined unless `vectors` — on a's device.
std::tuple<Tensor, Tensor, Tensor> decompose(const Tensor& a, bool vectors, bool full_matrices,
                                             const char* op) {
  check_matrices(a, op, false);
  const cpu::MatrixBatch shape = batch_shape(a);
  const int64_t m = shape.rows, n = shape.cols, k = std::min(m, n);
  DimVector s_sizes = batch_dims(a);
  s_sizes.push_back(k);
  const Tensor s = host_empty(s_sizes, a.dtype());
  Tensor u, vh;
  if (vectors) {
    u = host_empty(matrix_sizes(a, m, full_matrices ? m : k), a.dtype());
    vh = host_empty(matrix_sizes(a, full_matrices ? n : k, n), a.dtype());
  }
  const Tensor converged = host_empty(batch_dims(a), kBool);
  cpu::svd(a.dtype(), host_contiguous(a).data_ptr(), vectors ? u.data_ptr() : nullptr, s.data_ptr(),
           vectors ? vh.data_ptr() : nullptr, converged.data_ptr<bool>(), shape, full_matrices);
  check_batch_elements<bool>(logical_not(converged).reshape({-1}), op, [](bool) {
    return std::string("the SVD failed to converge (non-finite input?)");
  });
  if (!vectors) return {Tensor(), s.to(a.device()), Tensor()};
  return {u.to(a.device()), s.to(a.device()), vh.to(a.device())};
}

Tensor svd_backward(const Tensor& grad_u, const Tensor& grad_s, const Tensor& grad_vh,
                    const Tensor& u, const Tensor& s, const Tensor& vh) {
  const int64_t m = u.size(-2), n = vh.size(-1);
  const Tensor s_row = s.unsqueeze(-2), s_col = s.unsqueeze(-1);
  if (!grad_u.defined() && !grad_vh.defined()) return matmul(u * grad_s.unsqueeze(-2), vh);
  const Tensor v = mT(vh);
  const Tensor grad_v = grad_vh.defined() ? mT(grad_vh) : Tensor();
  auto skew = [](const Tensor& x) { return x - mT(x); };
  const Tensor s_squared = s * s;
  Tensor gaps = s_squared.unsqueeze(-2) - s_squared.unsqueeze(-1);
  gaps = gaps + eye(s.size(-1), gaps.options());
  Tensor inner = zeros_like(gaps);
  if (grad_u.defined()) inner = inner + skew(matmul(mT(u), grad_u)) * s_row;
  if (grad_v.defined()) inner = inner + s_col * skew(matmul(mT(v), grad_v));
  inner = inner / gaps;
  if (grad_s.defined()) inner = inner + grad_s.diag_embed();
  if (m > n && grad_u.defined()) {
    const Tensor grad_u_scaled = grad_u / s_row;
    const Tensor outside = grad_u_scaled - matmul(u, matmul(mT(u), grad_u_scaled));
    return matmul(matmul(u, inner) + outside, vh);
  }
  if (m < n && grad_v.defined()) {
    const Tensor grad_vh_scaled = mT(grad_v) / s_col;
    const Tensor outside = grad_vh_scaled - matmul(matmul(grad_vh_scaled, v), vh);
    return matmul(u, matmul(inner, vh) + outside);
  }
  return matmul(matmul(u, inner), vh);
}

// The decomposition, recording its gradient (through the first k columns of U and rows of Vh).
std::tuple<Tensor, Tensor, Tensor> differentiable_svd(const Tensor& a, bool full_matrices,
                                                      const char* op) {
  const auto [u, s, vh] = decompose(a, true, full_matrices, op);
  if (autograd::should_record(a)) {
    const std::array<Tensor, 3> outputs = {u, s, vh};
    autograd::record(op, {a}, outputs,
                     [saved_u = SavedTensor(u), saved_s = SavedTensor(s),
                      saved_vh = SavedTensor(vh)](GradVector& grads, GradInputs& in) {
                       const Tensor s = saved_s.get();
                       const int64_t k = s.size(-1);
                       auto leading = [k](const Tensor& t, int64_t dim) {
                         return t.defined() ? t.narrow(dim, 0, k) : t;
                       };
                       in[0] =
                           svd_backward(leading(grads[0], -1), grads[1], leading(grads[2], -2),
                                        leading(saved_u.get(), -1), s, leading(saved_vh.get(), -2));
                     });
  }
  return {u, s, vh};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& a, bool full_matrices) {
  return differentiable_svd(a, full_matrices, "linalg.svd");
}

Tensor svdvals(const Tensor& a) {
  constexpr const char* op = "linalg.svdvals";
  // The gradient needs the singular vectors.
  if (autograd::should_record(a)) return std::get<1>(differentiable_svd(a, false, op));
  return std::get<1>(decompose(a, false, false, op));
}

}  // namespace accel::linalg
