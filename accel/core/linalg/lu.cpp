// linalg.inv (and inv_ex), solve, det and slogdet from one LU factorization with partial
// pivoting, and the torch names inverse, det, slogdet and logdet. Their gradients reuse the
// forward's factors: Aᵀ⁻¹ comes from solves with them, so a backward factorizes nothing again
// (but for det's gradient at a singular matrix, the matrix of cofactors, taken from an SVD).
#include <algorithm>
#include <limits>

#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// Identity matrices with a's batch dims, on the host.
Tensor host_identities(const Tensor& a) {
  return expand_batch(eye(a.size(-1), TensorOptions(a.dtype())), batch_dims(a));
}

// (-1)^(the number of row swaps), per batch element, as a tensor of `dtype` (host).
Tensor permutation_sign(const LuFactors& factors, ScalarType dtype) {
  const int64_t n = factors.pivots.size(-1);
  const Tensor unswapped = arange(1, n + 1, 1, TensorOptions(kInt32));
  const Tensor swaps = ne(factors.pivots, unswapped).sum({-1});
  return (1 - 2 * remainder(swaps, 2)).to(dtype);
}

// The gradient of det at A by the matrix of cofactors det(U Vh) U diag(prod_{j != i} s_j) Vh
// from A = U diag(s) Vh, which stays finite where A is singular.
Tensor det_gradient_by_cofactors(const Tensor& a, const Tensor& grad) {
  const auto [u, s, vh] = svd(a, false);
  const int64_t n = s.size(-1);
  DimVector one_sizes(s.sizes());
  one_sizes.back() = 1;
  const Tensor one = ones(one_sizes, s.options());
  const Tensor before = cumprod(cat({one, s.narrow(-1, 0, n - 1)}, -1), -1);
  const Tensor after = cumprod(cat({one, s.narrow(-1, 1, n - 1).flip({-1})}, -1), -1).flip({-1});
  const Tensor rotation_sign = linalg::det(u) * linalg::det(vh);
  return (grad * rotation_sign).unsqueeze(-1).unsqueeze(-1) *
         matmul(u * (before * after).unsqueeze(-2), vh);
}

// A⁻¹ from A's LU factors, recording its gradient -A⁻ᵀ ∂X A⁻ᵀ.
Tensor inverse_from(const Tensor& a, const LuFactors& factors, const char* op) {
  const Tensor out = factors.solve(host_identities(a), false).to(a.device());
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out, [saved = SavedTensor(out)](const Tensor& grad, GradInputs& in) {
      const Tensor inverse_t = mT(saved.get());
      in[0] = -matmul(matmul(inverse_t, grad), inverse_t);
    });
  }
  return out;
}

}  // namespace

Tensor inv(const Tensor& a) {
  constexpr const char* op = "linalg.inv";
  check_matrices(a, op, true);
  const LuFactors factors = lu_factors(a);
  factors.check_invertible(op);
  return inverse_from(a, factors, op);
}

std::tuple<Tensor, Tensor> inv_ex(const Tensor& a) {
  constexpr const char* op = "linalg.inv_ex";
  check_matrices(a, op, true);
  const LuFactors factors = lu_factors(a);
  return {inverse_from(a, factors, op), factors.info.to(a.device())};
}

Tensor solve(const Tensor& a, const Tensor& b, bool left) {
  constexpr const char* op = "linalg.solve";
  check_matrices(a, op, true);
  check_same_dtype_and_device(a, b, op);
  if (!left) {
    ACCEL_CHECK(b.dim() >= 2, op,
                "with left=false, B must be matrices [..., k, n] (got shape {}) for A of shape {}",
                b.sizes(), a.sizes());
    return mT(solve(mT(a), mT(b), true));
  }
  const IntArrayRef b_sizes = b.sizes();
  const bool batch_of_vectors =
      b.dim() == a.dim() - 1 && std::equal(b_sizes.begin(), b_sizes.end(), a.sizes().begin());
  if (b.dim() == 1 || batch_of_vectors) {
    return solve(a, b.unsqueeze(-1), true).squeeze(-1);
  }
  ACCEL_CHECK(b.dim() >= 2 && b.size(-2) == a.size(-1), op,
              "expected B [..., {}, k] or a vector of {} for A of shape {}, got shape {}",
              a.size(-1), a.size(-1), a.sizes(), b.sizes());
  const DimVector batch = broadcast_batch_dims(a, b, op);
  const LuFactors factors = lu_factors(expand_batch(a, batch));
  factors.check_invertible(op);
  const Tensor out = factors.solve(expand_batch(b, batch), false).to(a.device());
  if (autograd::should_record(a, b)) {
    autograd::record(op, {a, b}, out,
                     [factors, saved_out = SavedTensor(out), a_sizes = DimVector(a.sizes()),
                      b_sizes = DimVector(b.sizes())](const Tensor& grad, GradInputs& in) {
                       const Tensor grad_b = factors.solve(grad, true).to(grad.device());
                       if (in.needs(0))
                         in[0] = sum_to(-matmul(grad_b, mT(saved_out.get())), a_sizes);
                       if (in.needs(1)) in[1] = sum_to(grad_b, b_sizes);
                     });
  }
  return out;
}

Tensor det(const Tensor& a) {
  constexpr const char* op = "linalg.det";
  check_matrices(a, op, true);
  const LuFactors factors = lu_factors(a);
  const Tensor host_det =
      factors.lu.diagonal(0, -2, -1).prod(-1) * permutation_sign(factors, a.dtype());
  const Tensor out = host_det.to(a.device());
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out,
                     [factors, saved_a = SavedTensor(a), saved_out = SavedTensor(out)](
                         const Tensor& grad, GradInputs& in) {
                       const Tensor x = saved_a.get();
                       const Tensor scale = (grad * saved_out.get()).unsqueeze(-1).unsqueeze(-1);
                       in[0] = scale * factors.solve(host_identities(x), true).to(x.device());
                       const Tensor singular = factors.singular();
                       if (singular.any().item<bool>()) {
                         in[0] = where(singular.to(x.device()).unsqueeze(-1).unsqueeze(-1),
                                       det_gradient_by_cofactors(x, grad), in[0]);
                       }
                     });
  }
  return out;
}

std::tuple<Tensor, Tensor> slogdet(const Tensor& a) {
  constexpr const char* op = "linalg.slogdet";
  check_matrices(a, op, true);
  const LuFactors factors = lu_factors(a);
  const Tensor diagonal = factors.lu.diagonal(0, -2, -1);
  const Tensor sign_out =
      (sign(diagonal).prod(-1) * permutation_sign(factors, a.dtype())).to(a.device());
  const Tensor logabsdet = log(abs(diagonal)).sum({-1}).to(a.device());
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, logabsdet, [factors](const Tensor& grad, GradInputs& in) {
      factors.check_invertible("linalg.slogdet (backward)");
      const Tensor inverse_t = factors.solve(host_identities(factors.lu), true).to(grad.device());
      in[0] = grad.unsqueeze(-1).unsqueeze(-1) * inverse_t;
    });
  }
  return {sign_out, logabsdet};
}

}  // namespace accel::linalg

namespace accel {

Tensor inverse(const Tensor& a) { return linalg::inv(a); }
Tensor det(const Tensor& a) { return linalg::det(a); }
std::tuple<Tensor, Tensor> slogdet(const Tensor& a) { return linalg::slogdet(a); }

Tensor logdet(const Tensor& a) {
  const auto [sign, logabsdet] = linalg::slogdet(a);
  return where(lt(sign, 0), std::numeric_limits<double>::quiet_NaN(), logabsdet);
}

Tensor Tensor::inverse() const { return linalg::inv(*this); }
Tensor Tensor::det() const { return linalg::det(*this); }
Tensor Tensor::logdet() const { return accel::logdet(*this); }
std::tuple<Tensor, Tensor> Tensor::slogdet() const { return linalg::slogdet(*this); }

}  // namespace accel
