// linalg.qr: Householder QR on the host, and its gradient for the reduced (and square complete)
// factorization: for m >= n, ∂A = (∂Q + Q copyltu(M)) R⁻ᵀ with M = R ∂Rᵀ - ∂Qᵀ Q (copyltu
// mirrors the lower triangle upwards); a wide A = [X | Y] splits into X's square case, with ∂Q
// taking Y ∂R_Yᵀ, and ∂Y = Q ∂R_Y.
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using autograd::GradVector;
using autograd::SavedTensor;
using namespace linalg_support;

namespace {

// The gradient of A = Q R for m >= n (Q [m, n], R [n, n]); either incoming gradient may be
// undefined (zero).
Tensor tall_qr_backward(const Tensor& grad_q, const Tensor& grad_r, const Tensor& q,
                        const Tensor& r) {
  Tensor m = zeros_like(r);
  if (grad_r.defined()) m = m + matmul(r, mT(grad_r));
  if (grad_q.defined()) m = m - matmul(mT(grad_q), q);
  const Tensor copyltu = m.tril() + mT(m.tril(-1));
  Tensor b = matmul(q, copyltu);
  if (grad_q.defined()) b = b + grad_q;
  // b R⁻ᵀ = (R⁻¹ bᵀ)ᵀ.
  return mT(triangular_solve(r, mT(b), true, false, false));
}

}  // namespace

std::tuple<Tensor, Tensor> qr(const Tensor& a, std::string_view mode) {
  constexpr const char* op = "linalg.qr";
  check_matrices(a, op, false);
  ACCEL_CHECK(mode == "reduced" || mode == "complete" || mode == "r", op,
              "mode must be \"reduced\", \"complete\" or \"r\", got \"{}\"", mode);
  const cpu::MatrixBatch shape = batch_shape(a);
  const int64_t m = shape.rows, n = shape.cols;
  const int64_t k = mode == "complete" ? m : std::min(m, n);
  const Tensor host_a = host_contiguous(a);
  const Tensor host_r = host_empty(matrix_sizes(a, k, n), a.dtype());
  const Tensor host_q = mode == "r" ? Tensor() : host_empty(matrix_sizes(a, m, k), a.dtype());
  cpu::qr(a.dtype(), host_a.data_ptr(), host_q.defined() ? host_q.data_ptr() : nullptr,
          host_r.data_ptr(), shape, mode == "complete");
  const Tensor q = mode == "r" ? empty({0}, a.options()) : host_q.to(a.device());
  const Tensor r = host_r.to(a.device());
  if (autograd::should_record(a)) {
    const std::array<Tensor, 2> outputs = {q, r};
    autograd::record(
        op, {a}, outputs,
        [saved_q = SavedTensor(q), saved_r = SavedTensor(r), mode = std::string(mode), m, n](
            GradVector& grads, GradInputs& in) {
          ACCEL_CHECK(mode != "r", "linalg.qr (backward)",
                      "the gradient depends on Q, which mode \"r\" does not compute; use mode "
                      "\"reduced\" to differentiate through linalg.qr");
          ACCEL_CHECK(mode == "reduced" || m <= n, "linalg.qr (backward)",
                      "mode \"complete\" is not differentiable when the matrices have more rows "
                      "than columns ({} > {})",
                      m, n);
          const Tensor q = saved_q.get(), r = saved_r.get();
          if (m >= n) {
            in[0] = tall_qr_backward(grads[0], grads[1], q, r);
            return;
          }
          // A = [X | Y] with X = Q R_X square: Y = Q R_Y adds Y ∂R_Yᵀ to Q's gradient.
          const Tensor r_x = r.narrow(-1, 0, m);
          const Tensor grad_r = grads[1].defined() ? grads[1] : zeros_like(r);
          const Tensor grad_r_y = grad_r.narrow(-1, m, n - m);
          const Tensor y = matmul(q, r.narrow(-1, m, n - m));
          Tensor grad_q = matmul(y, mT(grad_r_y));
          if (grads[0].defined()) grad_q = grad_q + grads[0];
          in[0] = cat(
              {tall_qr_backward(grad_q, grad_r.narrow(-1, 0, m), q, r_x), matmul(q, grad_r_y)}, -1);
        });
  }
  return {q, r};
}

}  // namespace accel::linalg
