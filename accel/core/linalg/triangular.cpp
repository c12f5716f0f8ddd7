// linalg.solve_triangular and linalg.cholesky (and cholesky_ex), and torch's cholesky_solve and
// cholesky_inverse composed from them. A triangular solve's gradient is another triangular solve,
// with Aᵀ; Cholesky's is two of them (L⁻ᵀ Φ(Lᵀ ∂L) L⁻¹, symmetrized, as PyTorch's).
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// L (host) and the order of the first failing leading minor, or 0, per matrix (host, int64).
std::tuple<Tensor, Tensor> cholesky_factor(const Tensor& a) {
  const Tensor factor = host_copy(a);
  const Tensor failed_minor = host_empty(batch_dims(a), kInt64);
  const cpu::MatrixBatch shape = batch_shape(a);
  cpu::cholesky(a.dtype(), factor.data_ptr(), failed_minor.data_ptr<int64_t>(), shape.batch,
                shape.rows);
  return {factor, failed_minor};
}

// The factor on a's device, recording its gradient L⁻ᵀ Φ(Lᵀ ∂L) L⁻¹, symmetrized.
Tensor differentiable_cholesky(const Tensor& a, const Tensor& factor, bool upper, const char* op) {
  const Tensor l = factor.to(a.device());
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, l, [saved_l = SavedTensor(l)](const Tensor& grad, GradInputs& in) {
      const Tensor factor = saved_l.get();
      Tensor phi = matmul(mT(factor), grad).tril();
      phi = phi - 0.5 * phi.diagonal(0, -2, -1).diag_embed();
      // L⁻ᵀ Φ L⁻¹, the right-hand solve as (L⁻ᵀ (L⁻ᵀ Φ)ᵀ)ᵀ.
      const Tensor left = triangular_solve(factor, phi, false, true, false);
      const Tensor grad_a = mT(triangular_solve(factor, mT(left), false, true, false));
      in[0] = 0.5 * (grad_a + mT(grad_a));
    });
  }
  return upper ? mT(l) : l;
}

}  // namespace

Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper, bool left,
                        bool unitriangular) {
  constexpr const char* op = "linalg.solve_triangular";
  check_matrices(a, op, true);
  check_same_dtype_and_device(a, b, op);
  ACCEL_CHECK(b.dim() >= 2, op, "expected B to be matrices [..., m, k], got shape {}", b.sizes());
  // X A = B is Aᵀ Xᵀ = Bᵀ, and Aᵀ's triangle is the other one.
  if (!left) return mT(solve_triangular(mT(a), mT(b), !upper, true, unitriangular));
  ACCEL_CHECK(b.size(-2) == a.size(-1), op,
              "expected B [..., {}, k] for A of shape {}, got shape {}", a.size(-1), a.sizes(),
              b.sizes());
  const DimVector batch = broadcast_batch_dims(a, b, op);
  const Tensor host_a = host_copy(expand_batch(a, batch));
  const Tensor out = triangular_solve(host_a, expand_batch(b, batch), upper, false, unitriangular);
  if (autograd::should_record(a, b)) {
    autograd::record(
        op, {a, b}, out,
        [host_a, saved_out = SavedTensor(out), upper, unitriangular, a_sizes = DimVector(a.sizes()),
         b_sizes = DimVector(b.sizes())](const Tensor& grad, GradInputs& in) {
          const Tensor grad_b = triangular_solve(host_a, grad, upper, true, unitriangular);
          if (in.needs(0)) {
            const Tensor grad_a = -matmul(grad_b, mT(saved_out.get()));
            const int64_t diagonal = unitriangular ? 1 : 0;
            in[0] = sum_to(upper ? grad_a.triu(diagonal) : grad_a.tril(-diagonal), a_sizes);
          }
          if (in.needs(1)) in[1] = sum_to(grad_b, b_sizes);
        });
  }
  return out;
}

Tensor cholesky(const Tensor& a, bool upper) {
  constexpr const char* op = "linalg.cholesky";
  check_matrices(a, op, true);
  const auto [factor, failed_minor] = cholesky_factor(a);
  check_batch_elements<int64_t>(failed_minor.reshape({-1}), op, [](int64_t order) {
    return fmt::format(
        "the input is not positive-definite (the leading minor of order {} is not "
        "positive-definite)",
        order);
  });
  return differentiable_cholesky(a, factor, upper, op);
}

std::tuple<Tensor, Tensor> cholesky_ex(const Tensor& a, bool upper) {
  constexpr const char* op = "linalg.cholesky_ex";
  check_matrices(a, op, true);
  const auto [factor, failed_minor] = cholesky_factor(a);
  return {differentiable_cholesky(a, factor, upper, op), failed_minor.to(kInt32).to(a.device())};
}

}  // namespace accel::linalg

namespace accel {

using linalg_support::mT;

Tensor cholesky_solve(const Tensor& b, const Tensor& l, bool upper) {
  constexpr const char* op = "cholesky_solve";
  linalg_support::check_matrices(l, op, true);
  linalg_support::check_same_dtype_and_device(l, b, op);
  ACCEL_CHECK(b.dim() >= 2 && b.size(-2) == l.size(-1), op,
              "expected B [..., {}, k] for a factor of shape {}, got shape {}", l.size(-1),
              l.sizes(), b.sizes());
  // L Lᵀ X = B: X = L⁻ᵀ (L⁻¹ B); Uᵀ U X = B: X = U⁻¹ (U⁻ᵀ B).
  const Tensor first = upper ? mT(l) : l;
  return linalg::solve_triangular(mT(first), linalg::solve_triangular(first, b, false), true);
}

Tensor cholesky_inverse(const Tensor& l, bool upper) {
  linalg_support::check_matrices(l, "cholesky_inverse", true);
  return cholesky_solve(eye(l.size(-1), l.options()), l, upper);
}

Tensor Tensor::cholesky_solve(const Tensor& l, bool upper) const {
  return accel::cholesky_solve(*this, l, upper);
}
Tensor Tensor::cholesky_inverse(bool upper) const { return accel::cholesky_inverse(*this, upper); }

}  // namespace accel
