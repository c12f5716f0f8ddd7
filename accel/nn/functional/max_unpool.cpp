// max_unpool1d/2d/3d: the pooled values scattered into zeros at their flat indices, one plane
// (or volume) per leading index; scatter's gradient reads the output's gradient back at them.
#include <vector>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/pooling.h"

namespace accel::nn::functional {

namespace {

std::vector<int64_t> per_dim(IntArrayRef values, size_t dims, const char* what, const char* op) {
  ACCEL_CHECK(values.size() == 1 || values.size() == dims, op, "{} must be one int or {}, got {}",
              what, dims, values);
  return values.size() == 1 ? std::vector<int64_t>(dims, values[0]) : values.vec();
}

Tensor max_unpool(const Tensor& input, const Tensor& indices, size_t dims, IntArrayRef kernel_size,
                  IntArrayRef stride_in, IntArrayRef padding_in, IntArrayRef output_size,
                  const char* op) {
  const auto spatial = static_cast<int64_t>(dims);
  ACCEL_CHECK(input.dim() == spatial + 1 || input.dim() == spatial + 2, op,
              "expected a {}-D or {}-D input, got {}", spatial + 1, spatial + 2, input.sizes());
  ACCEL_CHECK(indices.dtype() == kInt64 && indices.sizes() == input.sizes(), op,
              "expected int64 indices of the input's shape {}, got {} {}", input.sizes(),
              indices.dtype(), indices.sizes());
  const std::vector<int64_t> kernel = per_dim(kernel_size, dims, "kernel_size", op);
  const std::vector<int64_t> stride =
      per_dim(stride_in.empty() ? kernel_size : stride_in, dims, "stride", op);
  const std::vector<int64_t> padding = per_dim(padding_in, dims, "padding", op);
  DimVector out_sizes(input.sizes());
  int64_t plane = 1;
  for (size_t d = 0; d < dims; ++d) {
    const auto dim = static_cast<size_t>(input.dim()) - dims + d;
    const int64_t natural =
        (input.size(static_cast<int64_t>(dim)) - 1) * stride[d] - 2 * padding[d] + kernel[d];
    int64_t size = natural;
    if (!output_size.empty()) {
      ACCEL_CHECK(output_size.size() >= dims, op,
                  "output_size must hold at least {} values, got {}", dims, output_size);
      size = output_size[output_size.size() - dims + d];
      ACCEL_CHECK(size > natural - stride[d] && size < natural + stride[d], op,
                  "output_size {} must be within a stride of the default size {} in dim {}",
                  output_size, natural, d);
    }
    ACCEL_CHECK(size > 0, op, "the output size {} of dim {} is not positive", size, d);
    out_sizes[dim] = size;
    plane *= size;
  }
  const Tensor flat_indices = indices.flatten(-spatial);
  if (flat_indices.numel() > 0) {
    const int64_t low = flat_indices.min().item<int64_t>();
    const int64_t high = flat_indices.max().item<int64_t>();
    ACCEL_CHECK(low >= 0 && high < plane, op,
                "found an invalid max index {} for an output plane of {} elements",
                low < 0 ? low : high, plane);
  }
  DimVector plane_sizes(input.sizes().begin(), input.sizes().end() - spatial);
  plane_sizes.push_back(plane);
  return zeros(plane_sizes, input.options())
      .scatter(-1, flat_indices, input.flatten(-spatial))
      .view(out_sizes);
}

}  // namespace

Tensor max_unpool1d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef output_size) {
  return max_unpool(input, indices, 1, kernel_size, stride, padding, output_size, "max_unpool1d");
}

Tensor max_unpool2d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef output_size) {
  return max_unpool(input, indices, 2, kernel_size, stride, padding, output_size, "max_unpool2d");
}

Tensor max_unpool3d(const Tensor& input, const Tensor& indices, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef output_size) {
  return max_unpool(input, indices, 3, kernel_size, stride, padding, output_size, "max_unpool3d");
}

}  // namespace accel::nn::functional
