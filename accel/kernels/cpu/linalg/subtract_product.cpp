// subtract_product: the product into a buffer, then subtracted row by row.
#include "accel/kernels/cpu/linalg/subtract_product.h"

#include <algorithm>
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
  // Threaded as the product is: one thread's pass over a large block was a tenth of a [768,768]
  // LU factorization's time on two threads.
  parallel_for(0, m, std::max<int64_t>(1, kElementwiseGrain / n), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T* row = out + i * out_stride;
      const T* subtracted = product + i * n;
      for (int64_t j = 0; j < n; ++j) row[j] -= subtracted[j];
    }
  });
}

template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, float*, int64_t);
template void subtract_product(const MatrixOperand&, const MatrixOperand&, int64_t, int64_t,
                               int64_t, double*, int64_t);

}  // namespace accel::cpu::linalg
