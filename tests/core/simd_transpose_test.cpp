// simd::transpose moves every element of any shape, whole 8 x 8 blocks and edges alike, between
// strided rows, for elements of 4 and 8 bytes (transposed in registers) and of 2 (one by one),
// and writes nothing outside the transposed matrix.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {
namespace {

template <typename T>
void check_every_shape() {
  for (int64_t rows = 0; rows <= 19; ++rows) {
    for (int64_t cols = 0; cols <= 19; ++cols) {
      const int64_t in_stride = cols + 3, out_stride = rows + 5;
      std::vector<T> in(static_cast<size_t>(rows * in_stride));
      for (size_t i = 0; i < in.size(); ++i) in[i] = T(i % 4000 + 1);
      // Zero where nothing may be written (every element moved is at least 1).
      std::vector<T> out(static_cast<size_t>(std::max<int64_t>(cols, 1) * out_stride), T(0));
      simd::transpose(in.data(), rows, cols, in_stride, out.data(), out_stride);
      for (int64_t j = 0; j < std::max<int64_t>(cols, 1); ++j) {
        for (int64_t i = 0; i < out_stride; ++i) {
          const T expected =
              i < rows && j < cols ? in[static_cast<size_t>(i * in_stride + j)] : T(0);
          ASSERT_EQ(out[static_cast<size_t>(j * out_stride + i)], expected)
              << rows << "x" << cols << " at " << i << "," << j;
        }
      }
    }
  }
}

TEST(SimdTranspose, EveryShapeForEveryElementSize) {
  check_every_shape<float>();
  check_every_shape<double>();
  check_every_shape<int64_t>();
  check_every_shape<uint16_t>();
}

}  // namespace
}  // namespace accel::cpu
