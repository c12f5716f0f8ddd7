// linalg.eigh and eigvalsh: the symmetric eigen-decomposition on the host, and its gradient
// ∂A = V (diag(∂λ) + S / E) Vᵀ with S = (Vᵀ∂V - ∂VᵀV) / 2 and E_ij = λ_j - λ_i, symmetric as
// PyTorch's (infinite where eigenvalues repeat and ∂V is nonzero, as there).
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::GradVector;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

bool upper_from(std::string_view uplo, const char* op) {
  ACCEL_CHECK(uplo == "L" || uplo == "U", op, "UPLO must be \"L\" or \"U\", got \"{}\"", uplo);
  return uplo == "U";
}

// Eigenvalues and, when wanted, eigenvectors on a's device.
std::tuple<Tensor, Tensor> decompose(const Tensor& a, bool upper, bool vectors, const char* op) {
  check_matrices(a, op, true);
  const int64_t n = a.size(-1);
  DimVector value_sizes = batch_dims(a);
  value_sizes.push_back(n);
  const Tensor values = host_empty(value_sizes, a.dtype());
  const Tensor host_vectors = vectors ? host_empty(a.sizes(), a.dtype()) : Tensor();
  const Tensor converged = host_empty(batch_dims(a), kBool);
  cpu::eigh(a.dtype(), host_contiguous(a).data_ptr(), values.data_ptr(),
            vectors ? host_vectors.data_ptr() : nullptr, converged.data_ptr<bool>(),
            batch_shape(a).batch, n, upper);
  check_batch_elements<bool>(logical_not(converged).reshape({-1}), op, [](bool) {
    return std::string("the eigenvalue iteration failed to converge (non-finite input?)");
  });
  return {values.to(a.device()), vectors ? host_vectors.to(a.device()) : Tensor()};
}

// The decomposition, recording its gradient.
std::tuple<Tensor, Tensor> differentiable_eigh(const Tensor& a, bool upper, const char* op) {
  const auto [values, vectors] = decompose(a, upper, true, op);
  if (autograd::should_record(a)) {
    const std::array<Tensor, 2> outputs = {values, vectors};
    autograd::record(op, {a}, outputs,
                     [saved_values = SavedTensor(values), saved_vectors = SavedTensor(vectors)](
                         GradVector& grads, GradInputs& in) {
                       const Tensor lambda = saved_values.get(), v = saved_vectors.get();
                       Tensor inner = zeros_like(v);
                       if (grads[1].defined()) {
                         const Tensor vt_grad = matmul(mT(v), grads[1]);
                         Tensor gaps = lambda.unsqueeze(-2) - lambda.unsqueeze(-1);
                         gaps = gaps + eye(lambda.size(-1), gaps.options());
                         inner = 0.5 * (vt_grad - mT(vt_grad)) / gaps;
                       }
                       if (grads[0].defined()) inner = inner + grads[0].diag_embed();
                       in[0] = matmul(matmul(v, inner), mT(v));
                     });
  }
  return {values, vectors};
}

}  // namespace

std::tuple<Tensor, Tensor> eigh(const Tensor& a, std::string_view uplo) {
  constexpr const char* op = "linalg.eigh";
  return differentiable_eigh(a, upper_from(uplo, op), op);
}

Tensor eigvalsh(const Tensor& a, std::string_view uplo) {
  constexpr const char* op = "linalg.eigvalsh";
  const bool upper = upper_from(uplo, op);
  // The gradient needs the eigenvectors.
  if (autograd::should_record(a)) return std::get<0>(differentiable_eigh(a, upper, op));
  return std::get<0>(decompose(a, upper, false, op));
}

}  // namespace accel::linalg
