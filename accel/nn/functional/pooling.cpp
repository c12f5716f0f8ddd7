// The 1-D poolings as the 2-D ops over a unit height (after checks that name the 1-D op and
// its input), and adaptive max pooling as max(dim) per window, one dim at a time: the maximum
// of a rectangle is the maximum over its rows of the row maxima, and taking the first maximum
// in each pass picks the rectangle's first maximum in row-major order, as PyTorch does.
#include "accel/nn/functional/pooling.h"

#include <vector>

#include "accel/base/error.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/adaptive_windows.h"

namespace accel::nn::functional {

namespace {

void check_input_1d(const Tensor& input, const char* op) {
  ACCEL_CHECK(input.dim() == 2 || input.dim() == 3, op,
              "expected a 2-D [C, L] or 3-D [N, C, L] input, got {}", input.sizes());
  ACCEL_CHECK(input.size(-2) > 0 && input.size(-1) > 0, op,
              "expected non-empty channel and length dims, got input {}", input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
}

// PyTorch's checks of a 1-D window and its output length.
void check_windows_1d(const Tensor& input, const Pool1dWindows& w, const char* op) {
  check_input_1d(input, op);
  const int64_t stride = w.stride.value_or(w.kernel_size);
  ACCEL_CHECK(w.kernel_size > 0, op, "kernel_size must be positive, got {}", w.kernel_size);
  ACCEL_CHECK(stride > 0, op, "stride must be positive, got {}", stride);
  ACCEL_CHECK(w.dilation > 0, op, "dilation must be positive, got {}", w.dilation);
  ACCEL_CHECK(w.padding >= 0 && w.padding <= w.kernel_size / 2, op,
              "pad should be non-negative and at most half of kernel size, but got pad={} and "
              "kernel_size={}",
              w.padding, w.kernel_size);
  const int64_t out =
      pooled_size(input.size(-1), w.kernel_size, stride, w.padding, w.dilation, w.ceil_mode);
  ACCEL_CHECK(out > 0, op, "given input size {}, the calculated output length {} is too small",
              input.sizes(), out);
}

IntArrayRef stride_2d(const Pool1dWindows& w, std::vector<int64_t>& storage) {
  storage = {1, w.stride.value_or(w.kernel_size)};
  return storage;
}

void check_output_size(int64_t size, const char* op) {
  ACCEL_CHECK(size > 0, op, "output_size must be positive, got {}", size);
}

}  // namespace

std::pair<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input, const Pool1dWindows& w) {
  check_windows_1d(input, w, "max_pool1d");
  std::vector<int64_t> stride;
  auto [out, indices] =
      max_pool2d_with_indices(input.unsqueeze(-2), {1, w.kernel_size}, stride_2d(w, stride),
                              {0, w.padding}, {1, w.dilation}, w.ceil_mode);
  return {out.squeeze(-2), indices.squeeze(-2)};
}

Tensor max_pool1d(const Tensor& input, const Pool1dWindows& w) {
  return max_pool1d_with_indices(input, w).first;
}

Tensor avg_pool1d(const Tensor& input, const Pool1dWindows& w, bool count_include_pad) {
  ACCEL_CHECK(w.dilation == 1, "avg_pool1d", "average pooling takes no dilation, got {}",
              w.dilation);
  check_windows_1d(input, w, "avg_pool1d");
  std::vector<int64_t> stride;
  return avg_pool2d(input.unsqueeze(-2), {1, w.kernel_size}, stride_2d(w, stride), {0, w.padding},
                    w.ceil_mode, count_include_pad)
      .squeeze(-2);
}

Tensor adaptive_avg_pool1d(const Tensor& input, int64_t output_size) {
  check_input_1d(input, "adaptive_avg_pool1d");
  check_output_size(output_size, "adaptive_avg_pool1d");
  return adaptive_avg_pool2d(input.unsqueeze(-2), {1, output_size}).squeeze(-2);
}

std::pair<Tensor, Tensor> adaptive_max_pool1d_with_indices(const Tensor& input,
                                                           int64_t output_size) {
  check_input_1d(input, "adaptive_max_pool1d");
  check_output_size(output_size, "adaptive_max_pool1d");
  WindowMaxima m = adaptive_maxima(input, Tensor(), -1, output_size);
  return {m.values, m.indices};
}

Tensor adaptive_max_pool1d(const Tensor& input, int64_t output_size) {
  return adaptive_max_pool1d_with_indices(input, output_size).first;
}

std::pair<Tensor, Tensor> adaptive_max_pool2d_with_indices(const Tensor& input,
                                                           IntArrayRef output_size) {
  constexpr const char* op = "adaptive_max_pool2d";
  ACCEL_CHECK(input.dim() == 3 || input.dim() == 4, op,
              "expected a 3-D [C, H, W] or 4-D [N, C, H, W] input, got {}", input.sizes());
  ACCEL_CHECK(input.size(-3) > 0 && input.size(-2) > 0 && input.size(-1) > 0, op,
              "expected non-empty channel and spatial dims, got input {}", input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
  ACCEL_CHECK(output_size.size() == 1 || output_size.size() == 2, op,
              "output_size must be one or two ints, got {}", output_size);
  const int64_t out_h = output_size[0];
  const int64_t out_w = output_size.size() == 1 ? output_size[0] : output_size[1];
  check_output_size(std::min(out_h, out_w), op);
  // Row maxima over each column window, then the maxima of those over each row window,
  // carrying the column each row's maximum came from.
  const WindowMaxima columns = adaptive_maxima(input, Tensor(), -1, out_w);
  const WindowMaxima rows = adaptive_maxima(columns.values, columns.indices, -2, out_h);
  return {rows.values, rows.indices * input.size(-1) + rows.carried};
}

Tensor adaptive_max_pool2d(const Tensor& input, IntArrayRef output_size) {
  return adaptive_max_pool2d_with_indices(input, output_size).first;
}

}  // namespace accel::nn::functional
