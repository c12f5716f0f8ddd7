// linalg.lu_factor, lu and lu_solve: the LU factors themselves, differentiable. With A = P L U,
// ∂A = P L⁻ᵀ (tril(Lᵀ ∂L, -1) + triu(∂U Uᵀ)) U⁻ᵀ (PyTorch's formula for square A); a solve's
// gradient reaches the factors through ∂A: ∂L = tril(Pᵀ ∂A Uᵀ, -1), ∂U = triu(Lᵀ Pᵀ ∂A).
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// L (unit diagonal) and U from the combined factors.
Tensor lower_factor(const Tensor& lu) { return lu.tril(-1) + eye(lu.size(-1), lu.options()); }

// The gradient reaching the combined factors from ∂A, for A = P L U.
Tensor factors_gradient(const Tensor& grad_a, const Tensor& lu, const Tensor& p) {
  const Tensor permuted = matmul(mT(p), grad_a);
  return matmul(permuted, mT(lu.triu())).tril(-1) + matmul(mT(lower_factor(lu)), permuted).triu();
}

}  // namespace

std::tuple<Tensor, Tensor> lu_factor(const Tensor& a) {
  constexpr const char* op = "linalg.lu_factor";
  check_matrices(a, op, true);
  const LuFactors factors = lu_factors(a);
  const Tensor lu = factors.lu.to(a.device());
  const Tensor pivots = factors.pivots.to(a.device());
  if (autograd::should_record(a)) {
    autograd::record(
        op, {a}, lu, [saved_lu = SavedTensor(lu), pivots](const Tensor& grad, GradInputs& in) {
          const Tensor lu = saved_lu.get();
          const Tensor l = lower_factor(lu), u = lu.triu();
          const Tensor phi =
              matmul(mT(l), grad.tril(-1)).tril(-1) + matmul(grad.triu(), mT(u)).triu();
          // L⁻ᵀ phi U⁻ᵀ: the right-hand solve as (U⁻¹ (L⁻ᵀ phi)ᵀ)ᵀ.
          const Tensor left = triangular_solve(l, phi, false, true, true);
          const Tensor grad_a = mT(triangular_solve(u, mT(left), true, false, false));
          in[0] = matmul(permutation_matrix(pivots, lu.dtype()), grad_a);
        });
  }
  return {lu, pivots};
}

std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& a) {
  const auto [factors, pivots] = lu_factor(a);
  return {permutation_matrix(pivots, a.dtype()), lower_factor(factors), factors.triu()};
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left, bool adjoint) {
  constexpr const char* op = "linalg.lu_solve";
  check_matrices(lu, op, true);
  check_same_dtype_and_device(lu, b, op);
  ACCEL_CHECK(pivots.defined() && pivots.dtype() == kInt32 && pivots.dim() == lu.dim() - 1 &&
                  pivots.size(-1) == lu.size(-1),
              op, "expected int32 pivots [..., {}] for factors of shape {}, got {} of shape {}",
              lu.size(-1), lu.sizes(), pivots.defined() ? pivots.dtype() : kInt32,
              pivots.defined() ? pivots.sizes() : IntArrayRef{});
  ACCEL_CHECK(b.dim() >= 2, op, "expected B to be matrices, got shape {}", b.sizes());
  // X A = B is Aᵀ Xᵀ = Bᵀ.
  if (!left) return mT(lu_solve(lu, pivots, mT(b), true, !adjoint));
  ACCEL_CHECK(b.size(-2) == lu.size(-1), op,
              "expected B [..., {}, k] for factors of shape {}, got shape {}", lu.size(-1),
              lu.sizes(), b.sizes());
  const DimVector batch = broadcast_batch_dims(lu, b, op);
  DimVector pivot_sizes(batch);
  pivot_sizes.push_back(lu.size(-1));
  const LuFactors factors{host_copy(expand_batch(lu, batch)), host_copy(pivots.expand(pivot_sizes)),
                          Tensor()};
  const Tensor out = factors.solve(expand_batch(b, batch), adjoint).to(b.device());
  if (autograd::should_record(lu, b)) {
    autograd::record(
        op, {lu, b}, out,
        [factors, saved_out = SavedTensor(out), adjoint, lu_sizes = DimVector(lu.sizes()),
         b_sizes = DimVector(b.sizes())](const Tensor& grad, GradInputs& in) {
          const Tensor grad_b = factors.solve(grad, !adjoint).to(grad.device());
          if (in.needs(1)) in[1] = sum_to(grad_b, b_sizes);
          if (!in.needs(0)) return;
          const Tensor x = saved_out.get();
          // X = A⁻¹ B: ∂A = -∂B Xᵀ; X = A⁻ᵀ B: ∂A = -X ∂Bᵀ.
          const Tensor grad_a = adjoint ? -matmul(x, mT(grad_b)) : -matmul(grad_b, mT(x));
          const Tensor lu = factors.lu.to(grad.device());
          const Tensor p = permutation_matrix(factors.pivots, lu.dtype()).to(grad.device());
          in[0] = sum_to(factors_gradient(grad_a, lu, p), lu_sizes);
        });
  }
  return out;
}

}  // namespace accel::linalg
