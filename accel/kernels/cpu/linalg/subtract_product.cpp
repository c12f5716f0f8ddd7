// subtract_product: the product into a buffer, then subtracted.
#include "accel/kernels/cpu/linalg/subtract_product.h"

#include <type_traits>

#include "accel/kernels/cpu/gemm.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"

namespace accel::cpu::linalg {

template <typename T>
void subtract_product(const MatrixOperand& a, const MatrixOperand& b, int64_t m, int64_t k,
                      int64_t n, T* out, int64_t out_stride) {
  if (m == 0 || n == 0) return;
  const Scratch<T, ScratchUse::Product> room(m * n);
  T* product = room.data();
  gemm(std::is_same_v<T, float> ? kFloat32 : kFloat64, {}, m, k, n, a, b, product);
  Eigen::Map<RowMajorMatrix<T>, 0, Eigen::OuterStride<>>(
      out, m, n, Eigen::OuterStride<>(out_stride)) -= MatrixMap<T>(product, m, n);
}

template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, float*, int64_t);
template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, double*, int64_t);

}  // namespace accel::cpu::linalg
