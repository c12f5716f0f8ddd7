// linalg.pinv, matrix_rank and cond, from the singular values (the eigenvalues' magnitudes for
// a symmetric A with hermitian = true). Values at or below max(atol, rtol * the largest) count as
// zero. pinv records PyTorch's gradient of the pseudo-inverse itself, which unlike a route
// through the SVD stays finite where singular values repeat.
#include <limits>

#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// The cut-off below which a singular value counts as zero, given the largest ones [...].
Tensor cutoff(const Tensor& a, const Tensor& largest, std::optional<double> atol,
              std::optional<double> rtol) {
  const double eps = a.dtype() == kFloat64 ? std::numeric_limits<double>::epsilon()
                                           : std::numeric_limits<float>::epsilon();
  // PyTorch's defaults: rtol = eps * max(m, n) without atol, else 0.
  const double relative = rtol.value_or(atol ? 0.0 : eps * std::max(a.size(-2), a.size(-1)));
  return clamp(largest * relative, atol.value_or(0.0), std::nullopt);
}

// The largest of the last dim's values (0 for none), keeping that dim.
Tensor largest_of(const Tensor& values) {
  if (values.size(-1) == 0) return values.sum({-1}, true);
  return values.amax({-1}, true);
}

// The singular values (magnitudes of the eigenvalues when hermitian), without gradient.
Tensor spectrum(const Tensor& a, bool hermitian) {
  NoGradGuard no_grad;
  return hermitian ? abs(eigvalsh(a)) : svdvals(a);
}

// PyTorch's pinv_backward, in the order that keeps the products small.
Tensor pinv_backward(const Tensor& grad, const Tensor& pinv_a, const Tensor& a) {
  const Tensor pinv_t = mT(pinv_a), grad_t = mT(grad);
  if (a.size(-2) <= a.size(-1)) {
    const Tensor k = matmul(grad_t, pinv_a);
    const Tensor k_pinv_t = matmul(k, pinv_t);
    return -mT(matmul(pinv_a, k)) + k_pinv_t - matmul(matmul(a, pinv_a), k_pinv_t) +
           matmul(matmul(pinv_t, pinv_a), grad_t - matmul(k, a));
  }
  const Tensor k = matmul(pinv_a, grad_t);
  const Tensor pinv_t_k = matmul(pinv_t, k);
  return -mT(matmul(k, pinv_a)) + matmul(matmul(grad_t - matmul(a, k), pinv_a), pinv_t) + pinv_t_k -
         matmul(matmul(pinv_t_k, pinv_a), a);
}

// norm(A) * norm(A⁻¹), and infinity where A is singular, as PyTorch's.
template <typename Norm>
Tensor cond_by_inverse(const Tensor& a, const Norm& norm) {
  check_matrices(a, "linalg.cond", true);
  const auto [inverse, info] = inv_ex(a);
  const Tensor singular = ne(info, 0);
  if (!singular.any().item<bool>()) return norm(a) * norm(inverse);
  // Singular matrices are inverted again as identities (their non-finite inverses would make
  // the gradient NaN), then their results replaced.
  const Tensor invertible =
      where(singular.unsqueeze(-1).unsqueeze(-1), eye(a.size(-1), a.options()), a);
  return where(singular, std::numeric_limits<double>::infinity(), norm(a) * norm(inv(invertible)));
}

}  // namespace

Tensor pinv(const Tensor& a, std::optional<double> atol, std::optional<double> rtol,
            bool hermitian) {
  constexpr const char* op = "linalg.pinv";
  check_matrices(a, op, hermitian);
  Tensor out;
  {
    NoGradGuard forward_only;
    if (hermitian) {
      const auto [lambda, v] = eigh(a);
      const Tensor magnitude = abs(lambda);
      const Tensor keep = gt(magnitude, cutoff(a, largest_of(magnitude), atol, rtol));
      out = matmul(v * where(keep, reciprocal(lambda), 0).unsqueeze(-2), mT(v));
    } else {
      const auto [u, s, vh] = svd(a, false);
      const Tensor keep = gt(s, cutoff(a, largest_of(s), atol, rtol));
      out = matmul(mT(vh) * where(keep, reciprocal(s), 0).unsqueeze(-2), mT(u));
    }
  }
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out,
                     [saved_a = SavedTensor(a), saved_out = SavedTensor(out)](const Tensor& grad,
                                                                              GradInputs& in) {
                       in[0] = pinv_backward(grad, saved_out.get(), saved_a.get());
                     });
  }
  return out;
}

Tensor matrix_rank(const Tensor& a, std::optional<double> atol, std::optional<double> rtol,
                   bool hermitian) {
  check_matrices(a, "linalg.matrix_rank", hermitian);
  const Tensor values = spectrum(a, hermitian);
  return gt(values, cutoff(a, largest_of(values), atol, rtol)).sum({-1});
}

Tensor cond(const Tensor& a) { return cond(a, 2); }

Tensor cond(const Tensor& a, const Scalar& p) {
  constexpr const char* op = "linalg.cond";
  check_matrices(a, op, false);
  const double order = p.to_double();
  if (order == 2 || order == -2) {
    const Tensor s = svdvals(a);
    const Tensor largest = s.narrow(-1, 0, 1).squeeze(-1);
    const Tensor smallest = s.narrow(-1, s.size(-1) - 1, 1).squeeze(-1);
    return order == 2 ? largest / smallest : smallest / largest;
  }
  return cond_by_inverse(a, [&](const Tensor& x) { return matrix_norm(x, p); });
}

Tensor cond(const Tensor& a, std::string_view p) {
  return cond_by_inverse(a, [&](const Tensor& x) { return matrix_norm(x, p); });
}

}  // namespace accel::linalg

namespace accel {

Tensor pinverse(const Tensor& a, double rcond) { return linalg::pinv(a, std::nullopt, rcond); }
Tensor Tensor::pinverse(double rcond) const { return accel::pinverse(*this, rcond); }

}  // namespace accel
