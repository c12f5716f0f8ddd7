// max_pool2d, avg_pool2d and adaptive_avg_pool2d: argument checks and PyTorch's output sizes,
// then the device's pooling kernels on a contiguous copy. Max pooling's gradient adds each output
// gradient at its window's argmax; average pooling's spreads it evenly over its window.
#include "accel/core/pooling.h"

#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

struct HW {
  int64_t h, w;
};

// A size argument of one value (both dims) or two (h, w).
HW expand_hw(IntArrayRef v, const char* op, const char* what) {
  ACCEL_CHECK(v.size() == 1 || v.size() == 2, op, "{} must be one or two ints, got {}", what, v);
  return {v[0], v.size() == 1 ? v[0] : v[1]};
}

void check_input(const Tensor& input, const char* op) {
  ACCEL_CHECK(input.defined(), op, "the input is undefined");
  ACCEL_CHECK(input.dim() == 3 || input.dim() == 4, op,
              "expected a 3-D [C, H, W] or 4-D [N, C, H, W] input, got {}", input.sizes());
  ACCEL_CHECK(input.size(-3) > 0 && input.size(-2) > 0 && input.size(-1) > 0, op,
              "expected non-empty channel and spatial dims, got input {}", input.sizes());
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
}

// The kernel geometry of a fixed-window pooling of `input`, after PyTorch's checks.
Pool2dShape window_shape(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                         const char* op) {
  check_input(input, op);
  const HW k = expand_hw(kernel_size, op, "kernel_size");
  const HW s = stride.empty() ? k : expand_hw(stride, op, "stride");
  const HW p = expand_hw(padding, op, "padding");
  const HW d = expand_hw(dilation, op, "dilation");
  ACCEL_CHECK(k.h > 0 && k.w > 0, op, "kernel_size must be positive, got {}", kernel_size);
  ACCEL_CHECK(s.h > 0 && s.w > 0, op, "stride must be positive, got {}", stride);
  ACCEL_CHECK(d.h > 0 && d.w > 0, op, "dilation must be positive, got {}", dilation);
  for (auto [pad, kernel, dil] : {std::array{p.h, k.h, d.h}, std::array{p.w, k.w, d.w}}) {
    ACCEL_CHECK(pad >= 0 && pad <= ((kernel - 1) * dil + 1) / 2, op,
                "pad should be non-negative and at most half of effective kernel size, but got "
                "pad={}, kernel_size={} and dilation={}",
                pad, kernel, dil);
  }
  // PyTorch's pool2d_shape_check, stricter than the rule above once the kernel is dilated. A
  // dilation may still step over the whole input: the kernels give such windows -inf and no
  // gradient.
  ACCEL_CHECK(p.h <= k.h / 2 && p.w <= k.w / 2, op,
              "pad should be smaller than or equal to half of kernel size, but got padH = {}, "
              "padW = {}, kH = {}, kW = {}",
              p.h, p.w, k.h, k.w);
  const int64_t in_h = input.size(-2), in_w = input.size(-1);
  const int64_t out_h = pooled_size(in_h, k.h, s.h, p.h, d.h, ceil_mode);
  const int64_t out_w = pooled_size(in_w, k.w, s.w, p.w, d.w, ceil_mode);
  ACCEL_CHECK(out_h > 0 && out_w > 0, op,
              "given input size {}, the calculated output size [{}, {}] is too small",
              input.sizes(), out_h, out_w);
  return {input.numel() / (in_h * in_w),
          in_h,
          in_w,
          out_h,
          out_w,
          k.h,
          k.w,
          s.h,
          s.w,
          p.h,
          p.w,
          d.h,
          d.w};
}

// `sizes` with its spatial (last two) dims replaced.
DimVector with_spatial(IntArrayRef sizes, int64_t h, int64_t w) {
  DimVector out(sizes);
  out[out.size() - 2] = h;
  out[out.size() - 1] = w;
  return out;
}

// The gradient of average pooling: each output gradient spread over its window (divided by
// the window's divisor).
Tensor avg_pool_adjoint(const Tensor& grad, const Pool2dShape& s, AvgWindows windows) {
  const Tensor g = grad.contiguous();
  Tensor out = empty(as_ref(with_spatial(grad.sizes(), s.in_h, s.in_w)), g.options());
  backend(g.device())
      .avg_pool2d_backward(g.dtype(), s, windows, g.data_ptr(), out.data_ptr(),
                           current_stream(g.device()));
  return out;
}

// The recorded average pooling of `input` (geometry already checked).
Tensor avg_pool_forward(const Tensor& input, const Pool2dShape& s, AvgWindows windows) {
  const Tensor x = input.contiguous();
  Tensor out = empty(as_ref(with_spatial(input.sizes(), s.out_h, s.out_w)), x.options());
  backend(x.device())
      .avg_pool2d(x.dtype(), s, windows, x.data_ptr(), out.data_ptr(), current_stream(x.device()));
  if (autograd::should_record(input)) {
    autograd::record("avg_pool2d", {input}, out, [s, windows](const Tensor& g, GradInputs& in) {
      if (in.needs(0)) in[0] = avg_pool_adjoint(g, s, windows);
    });
  }
  return out;
}

}  // namespace

int64_t pooled_size(int64_t size, int64_t kernel, int64_t stride, int64_t pad, int64_t dilation,
                    bool ceil_mode) {
  const int64_t span = size + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = span / stride - (span % stride != 0 && span < 0) + 1;  // floor division
  if (ceil_mode && (out - 1) * stride >= size + pad) --out;
  return out;
}

std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, IntArrayRef kernel_size,
                                                  IntArrayRef stride, IntArrayRef padding,
                                                  IntArrayRef dilation, bool ceil_mode) {
  const Pool2dShape s =
      window_shape(input, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d");
  const Tensor x = input.contiguous();
  const DimVector out_sizes = with_spatial(input.sizes(), s.out_h, s.out_w);
  Tensor out = empty(as_ref(out_sizes), x.options());
  Tensor indices = empty(as_ref(out_sizes), TensorOptions(kInt64).device(x.device()));
  backend(x.device())
      .max_pool2d(x.dtype(), s, x.data_ptr(), out.data_ptr(), indices.data_ptr<int64_t>(),
                  current_stream(x.device()));
  if (autograd::should_record(input)) {
    autograd::record("max_pool2d", {input}, out,
                     [s, saved = SavedTensor(indices), sizes = DimVector(input.sizes())](
                         const Tensor& g, GradInputs& in) {
                       if (!in.needs(0)) return;
                       const Tensor grad = g.contiguous();
                       Tensor grad_input = empty(as_ref(sizes), grad.options());
                       backend(grad.device())
                           .max_pool2d_backward(
                               grad.dtype(), s, grad.data_ptr(), saved.get().data_ptr<int64_t>(),
                               grad_input.data_ptr(), current_stream(grad.device()));
                       in[0] = grad_input;
                     });
  }
  return {out, indices};
}

Tensor max_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode).first;
}

Tensor avg_pool2d(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  const Pool2dShape s =
      window_shape(input, kernel_size, stride, padding, {1}, ceil_mode, "avg_pool2d");
  return avg_pool_forward(input, s,
                          count_include_pad ? AvgWindows::IncludePad : AvgWindows::ExcludePad);
}

Tensor adaptive_avg_pool2d(const Tensor& input, IntArrayRef output_size) {
  check_input(input, "adaptive_avg_pool2d");
  const HW out = expand_hw(output_size, "adaptive_avg_pool2d", "output_size");
  ACCEL_CHECK(out.h > 0 && out.w > 0, "adaptive_avg_pool2d", "output_size must be positive, got {}",
              output_size);
  // One window over the whole plane (global average pooling) is a mean, which folds the plane
  // in vectors (PyTorch takes the same shortcut).
  if (out.h == 1 && out.w == 1) return input.mean({-2, -1}, true);
  const int64_t in_h = input.size(-2), in_w = input.size(-1);
  const Pool2dShape s{
      input.numel() / (in_h * in_w), in_h, in_w, out.h, out.w, 0, 0, 0, 0, 0, 0, 1, 1};
  return avg_pool_forward(input, s, AvgWindows::Adaptive);
}

}  // namespace accel
