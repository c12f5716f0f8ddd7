// subtract_product: the product into a buffer, then subtracted.
#include "accel/kernels/cpu/linalg/subtract_product.h"

#include <memory>
#include <type_traits>

#include "accel/kernels/cpu/gemm.h"
#include "accel/kernels/cpu/linalg/eigen_matrix.h"
#include "accel/kernels/cpu/packed_gemm.h"

namespace accel::cpu::linalg {

namespace {

// Products up to this size go into a buffer the thread keeps: one allocated per call was
// mapped and zeroed anew each time (page faults took 5% of a [256,256] LU factorization). Larger
// ones, rare and long, get their own.
constexpr int64_t kKeptProductBytes = int64_t{8} << 20;

}  // namespace

template <typename T>
void subtract_product(const MatrixOperand& a, const MatrixOperand& b, int64_t m, int64_t k,
                      int64_t n, T* out, int64_t out_stride) {
  if (m == 0 || n == 0) return;
  thread_local PanelBuffer<T> kept;
  std::unique_ptr<T[]> own;
  T* product = m * n * int64_t(sizeof(T)) <= kKeptProductBytes
                   ? kept.reserve(m * n)
                   : (own = std::make_unique_for_overwrite<T[]>(static_cast<size_t>(m * n))).get();
  gemm(std::is_same_v<T, float> ? kFloat32 : kFloat64, {}, m, k, n, a, b, product);
  Eigen::Map<RowMajorMatrix<T>, 0, Eigen::OuterStride<>>(
      out, m, n, Eigen::OuterStride<>(out_stride)) -= MatrixMap<T>(product, m, n);
}

template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, float*, int64_t);
template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, double*, int64_t);

}  // namespace accel::cpu::linalg
