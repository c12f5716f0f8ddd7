// Adaptive windows along one dim: each window narrowed out, reduced with keepdim, and the
// results concatenated in window order.
#include "accel/nn/functional/adaptive_windows.h"

#include <vector>

#include "accel/core/ops.h"

namespace accel::nn::functional {

std::pair<int64_t, int64_t> adaptive_window(int64_t i, int64_t n, int64_t size) {
  return {i * size / n, ((i + 1) * size + n - 1) / n};
}

WindowMaxima adaptive_maxima(const Tensor& values, const Tensor& positions, int64_t dim,
                             int64_t output_size) {
  const int64_t size = values.size(dim);
  std::vector<Tensor> maxima, indices, carried;
  for (int64_t i = 0; i < output_size; ++i) {
    const auto [start, end] = adaptive_window(i, output_size, size);
    auto [window_max, argmax] = max(values.narrow(dim, start, end - start), dim, true);
    if (positions.defined()) {
      carried.push_back(positions.narrow(dim, start, end - start).gather(dim, argmax));
    }
    maxima.push_back(window_max);
    indices.push_back(argmax + start);
  }
  return {cat(maxima, dim), cat(indices, dim), positions.defined() ? cat(carried, dim) : Tensor()};
}

Tensor adaptive_means(const Tensor& values, int64_t dim, int64_t output_size) {
  const int64_t size = values.size(dim);
  std::vector<Tensor> means;
  for (int64_t i = 0; i < output_size; ++i) {
    const auto [start, end] = adaptive_window(i, output_size, size);
    means.push_back(values.narrow(dim, start, end - start).mean(dim, true));
  }
  return cat(means, dim);
}

}  // namespace accel::nn::functional
