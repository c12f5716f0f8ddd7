// unfold and fold over the backends' im2col / col2im kernels, which hold columns as
// [C * kH * kW, N, L]; 16-bit inputs run in float32 and are rounded once, as convolutions do.
#include "accel/nn/functional/fold.h"

#include <array>

#include "accel/base/error.h"
#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/stream.h"

namespace accel::nn::functional {
namespace {

struct BlockParams {
  std::array<int64_t, 2> kernel, dilation, padding, stride;
};

std::array<int64_t, 2> pair_of(const ConvSizes& sizes, const char* what, const char* op) {
  ACCEL_CHECK(sizes.values.size() == 1 || sizes.values.size() == 2, op,
              "expected {} to hold 1 or 2 values, got {}", what, sizes.values);
  return {sizes.values.front(), sizes.values.back()};
}

BlockParams block_params(const ConvSizes& kernel_size, const ConvSizes& dilation,
                         const ConvSizes& padding, const ConvSizes& stride, const char* op) {
  const BlockParams p{pair_of(kernel_size, "kernel_size", op), pair_of(dilation, "dilation", op),
                      pair_of(padding, "padding", op), pair_of(stride, "stride", op)};
  for (size_t i = 0; i < 2; ++i) {
    ACCEL_CHECK(p.kernel[i] > 0 && p.dilation[i] > 0 && p.stride[i] > 0 && p.padding[i] >= 0, op,
                "kernel_size, dilation and stride must be positive and padding non-negative, got "
                "kernel_size {}, dilation {}, padding {}, stride {}",
                p.kernel, p.dilation, p.padding, p.stride);
  }
  return p;
}

// The blocks of `channels` channels of a height x width image.
ConvGeometry block_geometry(int64_t channels, int64_t height, int64_t width, const BlockParams& p,
                            const char* op) {
  const int64_t span_h = p.dilation[0] * (p.kernel[0] - 1) + 1;
  const int64_t span_w = p.dilation[1] * (p.kernel[1] - 1) + 1;
  const int64_t padded_h = height + 2 * p.padding[0];
  const int64_t padded_w = width + 2 * p.padding[1];
  ACCEL_CHECK(padded_h >= span_h && padded_w >= span_w, op,
              "the padded image size {}x{} is smaller than the dilated kernel size {}x{}", padded_h,
              padded_w, span_h, span_w);
  return ConvGeometry{channels,
                      height,
                      width,
                      p.kernel[0],
                      p.kernel[1],
                      p.padding[0],
                      p.padding[1],
                      p.stride[0],
                      p.stride[1],
                      p.dilation[0],
                      p.dilation[1],
                      (padded_h - span_h) / p.stride[0] + 1,
                      (padded_w - span_w) / p.stride[1] + 1};
}

ScalarType compute_type(ScalarType t) { return t == kFloat16 || t == kBFloat16 ? kFloat32 : t; }

Tensor col2im(const Tensor& columns, const ConvGeometry& g, int64_t batch);

// images [N, C, H, W] (float32 or float64) -> columns [C * kH * kW, N, L].
Tensor im2col(const Tensor& images, const ConvGeometry& g) {
  const Tensor x = images.contiguous();
  const int64_t batch = x.size(0);
  Tensor columns =
      empty({g.channels * g.kernel_h * g.kernel_w, batch, g.out_h * g.out_w}, x.options());
  if (columns.numel() > 0) {
    backend(x.device())
        .im2col(x.dtype(), g, batch, x.data_ptr(), columns.data_ptr(), current_stream(x.device()));
  }
  if (autograd::should_record(x)) {
    autograd::record("unfold", {x}, columns,
                     [g, batch](const Tensor& grad, autograd::GradInputs& in) {
                       in[0] = col2im(grad, g, batch);
                     });
  }
  return columns;
}

// columns [C * kH * kW, N, L] (float32 or float64) -> images [N, C, H, W].
Tensor col2im(const Tensor& columns, const ConvGeometry& g, int64_t batch) {
  const Tensor cols = columns.contiguous();
  Tensor images = empty({batch, g.channels, g.height, g.width}, cols.options());
  if (cols.numel() > 0) {
    backend(cols.device())
        .col2im(cols.dtype(), g, batch, cols.data_ptr(), images.data_ptr(),
                current_stream(cols.device()));
  } else {
    images.zero_();
  }
  if (autograd::should_record(cols)) {
    autograd::record("fold", {cols}, images, [g](const Tensor& grad, autograd::GradInputs& in) {
      in[0] = im2col(grad, g);
    });
  }
  return images;
}

}  // namespace

Tensor unfold(const Tensor& input, const ConvSizes& kernel_size, const ConvSizes& dilation,
              const ConvSizes& padding, const ConvSizes& stride) {
  constexpr const char* op = "unfold";
  ACCEL_CHECK(input.dim() == 3 || input.dim() == 4, op,
              "expected input of shape [N, C, H, W] or [C, H, W], got {}", input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  const BlockParams p = block_params(kernel_size, dilation, padding, stride, op);
  const bool batched = input.dim() == 4;
  const Tensor x = (batched ? input : input.unsqueeze(0)).to(compute_type(input.dtype()));
  const ConvGeometry g = block_geometry(x.size(1), x.size(2), x.size(3), p, op);
  const Tensor out = im2col(x, g).transpose(0, 1).contiguous().to(input.dtype());
  return batched ? out : out.squeeze(0);
}

Tensor fold(const Tensor& input, const ConvSizes& output_size, const ConvSizes& kernel_size,
            const ConvSizes& dilation, const ConvSizes& padding, const ConvSizes& stride) {
  constexpr const char* op = "fold";
  ACCEL_CHECK(input.dim() == 2 || input.dim() == 3, op,
              "expected input of shape [N, C * kH * kW, L] or [C * kH * kW, L], got {}",
              input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating-point input, got {}",
              to_string(input.dtype()));
  const BlockParams p = block_params(kernel_size, dilation, padding, stride, op);
  const std::array<int64_t, 2> size = pair_of(output_size, "output_size", op);
  ACCEL_CHECK(size[0] > 0 && size[1] > 0, op, "expected a positive output_size, got {}", size);
  const bool batched = input.dim() == 3;
  const Tensor x = (batched ? input : input.unsqueeze(0)).to(compute_type(input.dtype()));
  const int64_t taps = p.kernel[0] * p.kernel[1];
  ACCEL_CHECK(x.size(1) % taps == 0, op,
              "expected input's dim {} (size {}) to be divisible by the product of kernel_size {}",
              batched ? 1 : 0, x.size(1), p.kernel);
  const ConvGeometry g = block_geometry(x.size(1) / taps, size[0], size[1], p, op);
  ACCEL_CHECK(x.size(2) == g.out_h * g.out_w, op,
              "expected input's dim {} to hold the {} x {} = {} sliding blocks of output_size {}, "
              "got {} (input {})",
              batched ? 2 : 1, g.out_h, g.out_w, g.out_h * g.out_w, size, x.size(2), input.sizes());
  const Tensor out = col2im(x.transpose(0, 1), g, x.size(0)).to(input.dtype());
  return batched ? out : out.squeeze(0);
}

}  // namespace accel::nn::functional
