// conv2d and conv1d with their gradients, side by side. The forward unfolds the input into
// columns (im2col) and multiplies each group's weight matrix into them; the backward is the
// two transposed products, folding grad columns back into the input with col2im. Columns hold
// every image side by side, so each product is one large GEMM over the whole batch rather than
// one small GEMM per image — except where the backend convolves one image at a time (the CPU,
// one group): there each image's columns stay in cache, the products read and write the
// [N, C, H, W] layout directly, and nothing of the batch's size is unfolded or transposed.
// conv1d and conv_transpose1d are their 2-D forms on a unit-height image.
#include "accel/core/conv.h"

#include <array>

#include "accel/core/autocast.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

// Per spatial dim (height, width): the convolution hyper-parameters, padding split into the
// top/left and bottom/right amounts so that "same" can pad unevenly.
struct ConvParams {
  std::array<int64_t, 2> stride, pad_begin, pad_end, dilation;
  int64_t groups;
};

// One value for every spatial dim, or one per dim.
std::array<int64_t, 2> expand(IntArrayRef values, size_t spatial, const char* what,
                              const char* op) {
  ACCEL_CHECK(values.size() == 1 || values.size() == spatial, op,
              "expected {} to hold 1 or {} values, got {}", what, spatial, values);
  std::array<int64_t, 2> out{1, 1};
  for (size_t d = 0; d < spatial; ++d) {
    out[2 - spatial + d] = values[values.size() == 1 ? 0 : d];
  }
  return out;
}

ConvParams numeric_params(IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                          int64_t groups, size_t spatial, const char* op) {
  ConvParams p{expand(stride, spatial, "stride", op),
               expand(padding, spatial, "padding", op),
               {},
               expand(dilation, spatial, "dilation", op),
               groups};
  if (spatial == 1) p.pad_begin[0] = 0;
  p.pad_end = p.pad_begin;
  return p;
}

// "valid" / "same" padding for a weight with these spatial kernel sizes.
ConvParams string_params(IntArrayRef stride, std::string_view padding, IntArrayRef dilation,
                         int64_t groups, const Tensor& weight, size_t spatial, const char* op) {
  ConvParams p = numeric_params(stride, 0, dilation, groups, spatial, op);
  if (padding == "valid") return p;
  ACCEL_CHECK(padding == "same", op, "invalid padding string '{}', expected 'same' or 'valid'",
              padding);
  ACCEL_CHECK(p.stride[0] == 1 && p.stride[1] == 1, op,
              "padding='same' is not supported for strided convolutions (stride {})", stride);
  for (size_t d = 0; d < spatial; ++d) {
    const size_t i = 2 - spatial + d;
    const int64_t total = p.dilation[i] * (weight.size(weight.dim() - spatial + d) - 1);
    p.pad_begin[i] = total / 2;
    p.pad_end[i] = total - total / 2;
  }
  return p;
}

// The checks conv2d and conv_transpose2d share: options, dtypes and devices.
void check_options(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   const ConvParams& p, const char* op) {
  for (size_t i = 0; i < 2; ++i) {
    ACCEL_CHECK(p.stride[i] > 0 && p.dilation[i] > 0 && p.pad_begin[i] >= 0, op,
                "stride and dilation must be positive and padding non-negative, got stride {}, "
                "padding {}, dilation {}",
                p.stride, p.pad_begin, p.dilation);
  }
  ACCEL_CHECK(p.groups > 0, op, "non-positive groups is not supported, got {}", p.groups);
  ACCEL_CHECK(is_floating_point(input.dtype()), op, "not implemented for dtype {}", input.dtype());
  ACCEL_CHECK(input.dtype() == weight.dtype() && (!bias.defined() || bias.dtype() == input.dtype()),
              op, "input, weight and bias must have the same dtype, got {}, {} and {}",
              input.dtype(), weight.dtype(), bias.defined() ? bias.dtype() : input.dtype());
  check_same_device(input, weight, op);
  if (bias.defined()) check_same_device(input, bias, op);
}

// Weight dim 0 holds `groups` blocks; input channels and bias must match.
void check_channels(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t groups,
                    int64_t in_channels, int64_t out_channels, const char* op) {
  ACCEL_CHECK(weight.size(0) % groups == 0, op,
              "expected weight of size {} to have dim 0 divisible by groups = {}", weight.sizes(),
              groups);
  ACCEL_CHECK(input.size(1) == in_channels, op,
              "Given groups={}, weight of size {}, expected input{} to have {} channels, but got "
              "{} channels instead",
              groups, weight.sizes(), input.sizes(), in_channels, input.size(1));
  ACCEL_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == out_channels), op,
              "expected bias of shape [{}], got {}", out_channels, bias.sizes());
}

ConvGeometry geometry(const Tensor& input, const Tensor& weight, const ConvParams& p,
                      const char* op) {
  ConvGeometry g{input.size(1),
                 input.size(2),
                 input.size(3),
                 weight.size(2),
                 weight.size(3),
                 p.pad_begin[0],
                 p.pad_begin[1],
                 p.stride[0],
                 p.stride[1],
                 p.dilation[0],
                 p.dilation[1],
                 0,
                 0};
  const int64_t span_h = p.dilation[0] * (g.kernel_h - 1) + 1;
  const int64_t span_w = p.dilation[1] * (g.kernel_w - 1) + 1;
  const int64_t padded_h = g.height + p.pad_begin[0] + p.pad_end[0];
  const int64_t padded_w = g.width + p.pad_begin[1] + p.pad_end[1];
  ACCEL_CHECK(padded_h >= span_h && padded_w >= span_w, op,
              "padded input size {}x{} is smaller than the dilated kernel size {}x{} (input {}, "
              "weight {})",
              padded_h, padded_w, span_h, span_w, input.sizes(), weight.sizes());
  g.out_h = (padded_h - span_h) / p.stride[0] + 1;
  g.out_w = (padded_w - span_w) / p.stride[1] + 1;
  return g;
}

// The products inside a convolution run on inputs already autocast at entry and converted to
// the compute type: they must neither be recorded nor autocast again (which would round the
// float32 operands of a bfloat16 convolution to bfloat16 a second time).
struct InnerOpsGuard {
  explicit InnerOpsGuard(Device device) : no_autocast(device.type, kBFloat16, false) {}
  NoGradGuard no_grad;
  AutocastGuard no_autocast;
};

// 16-bit floats are convolved in float32 and rounded once, as matmul does.
ScalarType compute_type(ScalarType t) { return t == kFloat16 || t == kBFloat16 ? kFloat32 : t; }

// input [N, C, H, W] unfolded: [groups, C/groups * kH * kW, N * oH * oW] in `compute`.
Tensor columns(const Tensor& input, const ConvGeometry& g, int64_t groups, ScalarType compute) {
  const Tensor x = input.to(compute).contiguous();
  const int64_t n = x.size(0);
  Tensor cols = empty(
      {groups, g.channels / groups * g.kernel_h * g.kernel_w, n * g.out_h * g.out_w}, x.options());
  backend(x.device())
      .im2col(compute, g, n, x.data_ptr(), cols.data_ptr(), current_stream(x.device()));
  return cols;
}

// [N, C, ...] <-> [C, N, ...] (contiguous): the products see channels outermost, so each
// group's channels of every image form one matrix.
Tensor swap_batch_and_channels(const Tensor& t) { return t.transpose(0, 1).contiguous(); }

// weight [C_out, C_in/groups, kH, kW] as one matrix per group: [groups, C_out/groups, K].
Tensor weight_matrices(const Tensor& weight, int64_t groups, ScalarType compute) {
  return weight.to(compute).reshape({groups, weight.size(0) / groups, -1});
}

// conv2d on a batched 4-D input with checked operands; recorded for autograd.
// A convolution's bias gradient from its output gradient [N, C, H, W]: summed per image first,
// since a sum over the trailing dims reads the gradient in place where one over dims
// {0, 2, 3} would copy it into that order.
Tensor bias_grad(const Tensor& grad) { return grad.sum({2, 3}).sum(0); }

Tensor conv2d_batched(const Tensor& input, const Tensor& weight, const Tensor& bias,
                      const ConvParams& p, const char* op) {
  const ConvGeometry g = geometry(input, weight, p, op);
  const ScalarType dtype = input.dtype(), compute = compute_type(dtype);
  const int64_t n = input.size(0), out_channels = weight.size(0);
  Tensor out;
  {
    InnerOpsGuard inner(input.device());
    const Backend& kernels = backend(input.device());
    if (p.groups == 1 && kernels.conv2d != nullptr) {
      const Tensor x = input.to(compute).contiguous(), w = weight.to(compute).contiguous();
      const Tensor b = bias.defined() ? bias.to(compute).contiguous() : Tensor();
      out = empty({n, out_channels, g.out_h, g.out_w}, x.options());
      kernels.conv2d(compute, g, n, out_channels, x.data_ptr(), w.data_ptr(),
                     b.defined() ? b.data_ptr() : nullptr, out.data_ptr(),
                     current_stream(x.device()));
    } else {
      out = swap_batch_and_channels(
          matmul(weight_matrices(weight, p.groups, compute), columns(input, g, p.groups, compute))
              .view({out_channels, n, g.out_h, g.out_w}));
      if (bias.defined()) out.add_(bias.to(compute).view({1, out_channels, 1, 1}));
    }
    out = out.to(dtype);
  }
  if (!autograd::should_record(input, weight, bias)) return out;
  const bool input_grad = autograd::requires_grad(input);
  const bool weight_grad = autograd::requires_grad(weight);
  autograd::record(
      op, {input, weight, bias}, out,
      [si = weight_grad ? SavedTensor(input) : SavedTensor(),
       sw = input_grad ? SavedTensor(weight) : SavedTensor(), g, groups = p.groups, dtype, compute,
       n, input_sizes = DimVector(input.sizes()),
       weight_sizes = DimVector(weight.sizes())](const Tensor& grad, GradInputs& in) {
        InnerOpsGuard inner(grad.device());
        if (in.needs(2)) in[2] = bias_grad(grad);
        if (!in.needs(0) && !in.needs(1)) return;
        const Backend& kernels = backend(grad.device());
        const Stream stream = current_stream(grad.device());
        if (groups == 1 && kernels.conv2d_input_grad != nullptr) {  // one image at a time
          const Tensor grad_c = grad.to(compute).contiguous();
          if (in.needs(0)) {
            const Tensor w = sw.get().to(compute).contiguous();
            Tensor grad_input = empty(input_sizes, grad_c.options());
            kernels.conv2d_input_grad(compute, g, n, grad.size(1), grad_c.data_ptr(), w.data_ptr(),
                                      grad_input.data_ptr(), stream);
            in[0] = grad_input.to(dtype);
          }
          if (in.needs(1)) {
            const Tensor x = si.get().to(compute).contiguous();
            Tensor grad_weight = empty(weight_sizes, grad_c.options());
            kernels.conv2d_weight_grad(compute, g, n, grad.size(1), x.data_ptr(), grad_c.data_ptr(),
                                       grad_weight.data_ptr(), stream);
            in[1] = grad_weight.to(dtype);
          }
          return;
        }
        const Tensor grad_rows = swap_batch_and_channels(grad.to(compute))
                                     .view({groups, grad.size(1) / groups, n * g.out_h * g.out_w});
        if (in.needs(0)) {
          const Tensor grad_cols =
              matmul(weight_matrices(sw.get(), groups, compute).transpose(-1, -2), grad_rows);
          Tensor grad_input = empty(input_sizes, grad_rows.options());
          kernels.col2im(compute, g, n, grad_cols.data_ptr(), grad_input.data_ptr(), stream);
          in[0] = grad_input.to(dtype);
        }
        if (in.needs(1)) {
          const Tensor cols = columns(si.get(), g, groups, compute);
          in[1] = matmul(grad_rows, cols.transpose(-1, -2)).view(weight_sizes).to(dtype);
        }
      });
  return out;
}

// Adds the batch dim an unbatched input lacks, with the error both conv ops give.
Tensor batched_input(const Tensor& input, int64_t batched_dim, const char* op) {
  ACCEL_CHECK(input.dim() == batched_dim || input.dim() == batched_dim - 1, op,
              "Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}",
              batched_dim - 1, batched_dim, op, input.sizes());
  return input.dim() == batched_dim ? input : input.unsqueeze(0);
}

// Checks, autocasts and adds the missing batch dim of a `spatial`-d convolution, viewed as a
// 2-D one (conv1d inserts a unit height).
Tensor convolution(const Tensor& input_in, const Tensor& weight_in, const Tensor& bias_in,
                   const ConvParams& p, size_t spatial, const char* op) {
  const Tensor input = autocast_input(input_in, CastPolicy::LowerPrecision);
  const Tensor weight = autocast_input(weight_in, CastPolicy::LowerPrecision);
  const Tensor bias = autocast_input(bias_in, CastPolicy::LowerPrecision);
  const int64_t batched_dim = static_cast<int64_t>(spatial) + 2;
  Tensor x = batched_input(input, batched_dim, op);
  ACCEL_CHECK(weight.dim() == batched_dim, op, "expected {}-D weight, got weight of size {}",
              batched_dim, weight.sizes());
  const bool batched = input.dim() == batched_dim;
  Tensor w = weight;
  if (spatial == 1) {
    x = x.unsqueeze(2);
    w = w.unsqueeze(2);
  }
  check_options(x, w, bias, p, op);
  check_channels(x, w, bias, p.groups, w.size(1) * p.groups, w.size(0), op);
  Tensor out = conv2d_batched(x, w, bias, p, op);
  if (spatial == 1) out = out.squeeze(2);
  return batched ? out : out.squeeze(0);
}

}  // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return convolution(input, weight, bias,
                     numeric_params(stride, padding, dilation, groups, 2, "conv2d"), 2, "conv2d");
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution(input, weight, bias,
                     string_params(stride, padding, dilation, groups, weight, 2, "conv2d"), 2,
                     "conv2d");
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return convolution(input, weight, bias,
                     numeric_params(stride, padding, dilation, groups, 1, "conv1d"), 1, "conv1d");
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution(input, weight, bias,
                     string_params(stride, padding, dilation, groups, weight, 1, "conv1d"), 1,
                     "conv1d");
}

namespace {

// conv_transpose1d and conv_transpose2d: checks, autocasts and adds the missing batch dim of a
// `spatial`-d transposed convolution, viewed as a 2-D one (1-D inserts a unit height).
Tensor transposed_convolution(const Tensor& input_in, const Tensor& weight_in,
                              const Tensor& bias_in, IntArrayRef stride, IntArrayRef padding,
                              IntArrayRef output_padding, int64_t groups, IntArrayRef dilation,
                              size_t spatial, const char* op) {
  const Tensor input = autocast_input(input_in, CastPolicy::LowerPrecision);
  const Tensor bias = autocast_input(bias_in, CastPolicy::LowerPrecision);
  const int64_t batched_dim = static_cast<int64_t>(spatial) + 2;
  Tensor x = batched_input(input, batched_dim, op);
  Tensor weight = autocast_input(weight_in, CastPolicy::LowerPrecision);
  ACCEL_CHECK(weight.dim() == batched_dim, op, "expected {}-D weight, got weight of size {}",
              batched_dim, weight.sizes());
  const ConvParams p = numeric_params(stride, padding, dilation, groups, spatial, op);
  std::array<int64_t, 2> extra = expand(output_padding, spatial, "output_padding", op);
  if (spatial == 1) {
    x = x.unsqueeze(2);
    weight = weight.unsqueeze(2);
    extra[0] = 0;
  }
  check_options(x, weight, bias, p, op);
  const int64_t out_channels = weight.size(1) * groups;
  check_channels(x, weight, bias, groups, weight.size(0), out_channels, op);
  for (size_t i = 0; i < 2; ++i) {
    ACCEL_CHECK(extra[i] >= 0 && (extra[i] < p.stride[i] || extra[i] < p.dilation[i]), op,
                "output padding must be smaller than either stride or dilation, got "
                "output_padding {}, stride {}, dilation {}",
                extra, p.stride, p.dilation);
  }
  // The output is the "image" that a conv2d with these parameters would map onto the input,
  // so im2col / col2im run with the roles of input and output exchanged.
  const int64_t n = x.size(0), height = x.size(2), width = x.size(3);
  const int64_t out_h = (height - 1) * p.stride[0] - 2 * p.pad_begin[0] +
                        p.dilation[0] * (weight.size(2) - 1) + extra[0] + 1;
  const int64_t out_w = (width - 1) * p.stride[1] - 2 * p.pad_begin[1] +
                        p.dilation[1] * (weight.size(3) - 1) + extra[1] + 1;
  ACCEL_CHECK(out_h > 0 && out_w > 0, op,
              "computed output size {}x{} is too small (input {}, "
              "weight {})",
              out_h, out_w, x.sizes(), weight.sizes());
  const ConvGeometry g{out_channels,   out_h,          out_w,       weight.size(2), weight.size(3),
                       p.pad_begin[0], p.pad_begin[1], p.stride[0], p.stride[1],    p.dilation[0],
                       p.dilation[1],  height,         width};
  const ScalarType dtype = x.dtype(), compute = compute_type(dtype);
  // input as [groups, C_in / groups, N * H * W], the right operand of every product.
  auto input_rows = [groups, compute](const Tensor& t) {
    return swap_batch_and_channels(t.to(compute)).view({groups, t.size(1) / groups, -1});
  };
  Tensor out;
  {
    InnerOpsGuard inner(x.device());
    const Tensor cols =
        matmul(weight_matrices(weight, groups, compute).transpose(-1, -2), input_rows(x));
    out = empty({n, out_channels, out_h, out_w}, cols.options());
    backend(cols.device())
        .col2im(compute, g, n, cols.data_ptr(), out.data_ptr(), current_stream(cols.device()));
    if (bias.defined()) out.add_(bias.to(compute).view({1, out_channels, 1, 1}));
    out = out.to(dtype);
  }
  if (autograd::should_record(x, weight, bias)) {
    const bool input_grad = autograd::requires_grad(x);
    const bool weight_grad = autograd::requires_grad(weight);
    autograd::record(
        op, {x, weight, bias}, out,
        [sx = weight_grad ? SavedTensor(x) : SavedTensor(),
         sw = input_grad ? SavedTensor(weight) : SavedTensor(), g, groups, dtype, compute,
         input_rows, input_sizes = DimVector(x.sizes()),
         weight_sizes = DimVector(weight.sizes())](const Tensor& grad, GradInputs& in) {
          InnerOpsGuard inner(grad.device());
          if (in.needs(2)) in[2] = bias_grad(grad);
          if (!in.needs(0) && !in.needs(1)) return;
          const Tensor grad_cols = columns(grad, g, groups, compute);
          if (in.needs(0)) {
            in[0] = swap_batch_and_channels(
                        matmul(weight_matrices(sw.get(), groups, compute), grad_cols)
                            .view({input_sizes[1], input_sizes[0], input_sizes[2], input_sizes[3]}))
                        .to(dtype);
          }
          if (in.needs(1)) {
            in[1] = matmul(input_rows(sx.get()), grad_cols.transpose(-1, -2))
                        .view(weight_sizes)
                        .to(dtype);
          }
        });
  }
  if (spatial == 1) out = out.squeeze(2);
  return input.dim() == batched_dim ? out : out.squeeze(0);
}

}  // namespace

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                dilation, 2, "conv_transpose2d");
}

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                dilation, 1, "conv_transpose1d");
}

}  // namespace accel
