// Adaptive pooling along one dim, composed of narrow, max / mean and cat: the pieces the
// adaptive poolings without a kernel of their own (max pooling, 3-D average pooling) are built
// from, one dim at a time.
#pragma once

#include <cstdint>
#include <utility>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// Window i of n over a dim of `size`: [floor(i * size / n), ceil((i + 1) * size / n)).
std::pair<int64_t, int64_t> adaptive_window(int64_t i, int64_t n, int64_t size);

// The maxima of `values` over the adaptive windows of dim `dim`, and the index along that dim
// of each one picked (the first maximum); `positions`, when given, holds per element an index
// along another dim, carried along with the picked element.
struct WindowMaxima {
  Tensor values, indices, carried;
};
WindowMaxima adaptive_maxima(const Tensor& values, const Tensor& positions, int64_t dim,
                             int64_t output_size);

// The means of `values` over the adaptive windows of dim `dim`.
Tensor adaptive_means(const Tensor& values, int64_t dim, int64_t output_size);

}  // namespace accel::nn::functional
