// linalg.matrix_exp: the exponential on the host, and its gradient as the upper-right block of
// exp([[Aᵀ, ∂E], [0, Aᵀ]]) (the Fréchet derivative of exp at Aᵀ in the direction ∂E).
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using autograd::GradInputs;
using namespace linalg_support;

namespace {

Tensor exponential(const Tensor& a) {
  const Tensor out = host_empty(a.sizes(), a.dtype());
  const cpu::MatrixBatch shape = batch_shape(a);
  cpu::matrix_exp(a.dtype(), host_contiguous(a).data_ptr(), out.data_ptr(), shape.batch,
                  shape.rows);
  return out.to(a.device());
}

}  // namespace

Tensor matrix_exp(const Tensor& a) {
  constexpr const char* op = "linalg.matrix_exp";
  check_matrices(a, op, true);
  const Tensor out = exponential(a);
  if (autograd::should_record(a)) {
    autograd::record(
        op, {a}, out, [saved_a = autograd::SavedTensor(a)](const Tensor& grad, GradInputs& in) {
          const Tensor a_t = mT(saved_a.get());
          const int64_t n = a_t.size(-1);
          const Tensor block = cat({cat({a_t, grad}, -1), cat({zeros_like(a_t), a_t}, -1)}, -2);
          in[0] = exponential(block).narrow(-2, 0, n).narrow(-1, n, n);
        });
  }
  return out;
}

}  // namespace accel::linalg

namespace accel {

Tensor matrix_exp(const Tensor& a) { return linalg::matrix_exp(a); }
Tensor Tensor::matrix_exp() const { return linalg::matrix_exp(*this); }

}  // namespace accel
