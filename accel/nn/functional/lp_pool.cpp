// lp_pool1d/2d/3d as PyTorch computes them: average pooling of x^p times the window size, its
// negative parts clamped to zero, to the power 1/p.
#include <vector>

#include "accel/base/error.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/pooling.h"

namespace accel::nn::functional {

namespace {

// The window sums of x^p, from the average pooling `average` (which divides by the window).
Tensor lp_from_average(const Tensor& average, double norm_type, IntArrayRef kernel_size,
                       size_t dims) {
  int64_t window = 1;
  for (size_t d = 0; d < dims; ++d) window *= kernel_size[kernel_size.size() == 1 ? 0 : d];
  return (sign(average) * relu(abs(average))).mul(window).pow(1.0 / norm_type);
}

void check_norm(double norm_type, const char* op) {
  ACCEL_CHECK(norm_type > 0, op, "norm_type must be positive, got {}", norm_type);
}

}  // namespace

Tensor lp_pool1d(const Tensor& input, double norm_type, IntArrayRef kernel_size, IntArrayRef stride,
                 bool ceil_mode) {
  check_norm(norm_type, "lp_pool1d");
  ACCEL_CHECK(kernel_size.size() == 1 && stride.size() <= 1, "lp_pool1d",
              "expected one kernel size and at most one stride, got {} and {}", kernel_size,
              stride);
  const Pool1dWindows w{kernel_size[0],
                        stride.empty() ? std::nullopt : std::optional<int64_t>(stride[0]), 0, 1,
                        ceil_mode};
  return lp_from_average(avg_pool1d(input.pow(norm_type), w), norm_type, kernel_size, 1);
}

Tensor lp_pool2d(const Tensor& input, double norm_type, IntArrayRef kernel_size, IntArrayRef stride,
                 bool ceil_mode) {
  check_norm(norm_type, "lp_pool2d");
  return lp_from_average(avg_pool2d(input.pow(norm_type), kernel_size, stride, {0}, ceil_mode),
                         norm_type, kernel_size, 2);
}

Tensor lp_pool3d(const Tensor& input, double norm_type, IntArrayRef kernel_size, IntArrayRef stride,
                 bool ceil_mode) {
  check_norm(norm_type, "lp_pool3d");
  return lp_from_average(avg_pool3d(input.pow(norm_type), kernel_size, stride, {0}, ceil_mode),
                         norm_type, kernel_size, 3);
}

}  // namespace accel::nn::functional
