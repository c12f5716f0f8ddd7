// pad. Constant padding takes each padded dim in turn, from the last: it narrows away negative
// amounts and concatenates blocks of the value. The other modes are one kernel family over all
// the padded dims (kernels/common/pad_math.h): every output element reads its source element
// (mirrored, clamped or wrapped), and the gradient sums back into the elements that were read.
#include "accel/nn/functional/pad.h"

#include <algorithm>

#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"
#include "accel/kernels/common/pad_math.h"

namespace accel::nn::functional {

namespace {

constexpr const char* kOp = "pad";

const char* name_of(PadMode mode) {
  switch (mode) {
    case PadMode::Constant:
      return "constant";
    case PadMode::Reflect:
      return "reflect";
    case PadMode::Replicate:
      return "replicate";
    case PadMode::Circular:
      return "circular";
  }
  return "?";
}

Tensor pad_constant(const Tensor& x, int64_t dim, int64_t before, int64_t after, double value) {
  const int64_t size = x.size(dim);
  ACCEL_CHECK(size + before + after >= 0, kOp,
              "padding ({}, {}) of dimension {} of size {} leaves a negative size", before, after,
              dim, size);
  const int64_t cut_before = std::max<int64_t>(0, -before);
  const int64_t kept = std::max<int64_t>(0, size - cut_before - std::max<int64_t>(0, -after));
  const Tensor middle = x.narrow(dim, std::min(cut_before, size), kept);
  auto block = [&](int64_t length) {
    DimVector sizes(x.sizes());
    sizes[static_cast<size_t>(dim)] = length;
    return full(sizes, value, x.options());
  };
  std::vector<Tensor> parts;
  if (before > 0) parts.push_back(block(before));
  parts.push_back(middle);
  if (after > 0) parts.push_back(block(after));
  return parts.size() == 1 ? middle : cat(parts, dim);
}

// The kernels' name for a mode other than Constant.
PadKind kind_of(PadMode mode) {
  return mode == PadMode::Reflect     ? PadKind::Reflect
         : mode == PadMode::Replicate ? PadKind::Replicate
                                      : PadKind::Circular;
}

// The kernel's view of padding the last pairs dims of x: its three axes end at x's last dim,
// the dims before the padded ones are planes.
PadShape shape_of(const Tensor& x, const std::vector<int64_t>& amounts, PadMode mode) {
  const auto pairs = static_cast<int64_t>(amounts.size() / 2);
  PadShape s{1, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, kind_of(mode)};
  for (int64_t d = 0; d < x.dim() - pairs; ++d) s.planes *= x.size(d);
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t dim = x.dim() - 1 - k;
    const int64_t size = x.size(dim);
    const int64_t before = amounts[static_cast<size_t>(2 * k)];
    const int64_t after = amounts[static_cast<size_t>(2 * k + 1)];
    const int64_t limit = mode == PadMode::Reflect ? size - 1 : size;
    ACCEL_CHECK(std::max(before, after) <= limit && size + before + after >= 0, kOp,
                "{} padding ({}, {}) of dimension {} must be at most {} for its size {}",
                name_of(mode), before, after, dim, limit, size);
    s.in[2 - k] = size;
    s.before[2 - k] = before;
    s.after[2 - k] = after;
  }
  return s;
}

// The gradient of padding: each input element the sum of the output elements that read it.
Tensor unpadded(const Tensor& grad, const PadShape& s, const DimVector& input_sizes) {
  const Tensor g = grad.contiguous();
  Tensor out = empty(input_sizes, grad.options());
  backend(grad.device())
      .pad_backward(grad.dtype(), s, g.data_ptr(), out.data_ptr(), current_stream(grad.device()));
  return out;
}

// x padded by one kernel.
Tensor padded(const Tensor& x, const PadShape& s, const DimVector& output_sizes) {
  const Tensor in = x.contiguous();
  Tensor out = empty(output_sizes, x.options());
  backend(x.device()).pad(x.dtype(), s, in.data_ptr(), out.data_ptr(), current_stream(x.device()));
  if (autograd::should_record(x)) {
    autograd::record(
        kOp, {x}, out,
        [s, input_sizes = DimVector(x.sizes())](const Tensor& grad, autograd::GradInputs& g) {
          g[0] = unpadded(grad, s, input_sizes);
        });
  }
  return out;
}

}  // namespace

Tensor pad(const Tensor& input, const PadFuncOptions& options) {
  ACCEL_CHECK(input.defined(), kOp, "the tensor is undefined");
  const std::vector<int64_t>& amounts = options.pad();
  const auto pairs = static_cast<int64_t>(amounts.size() / 2);
  ACCEL_CHECK(amounts.size() % 2 == 0, kOp, "the padding {} must hold an even number of values",
              amounts);
  ACCEL_CHECK(pairs <= input.dim(), kOp,
              "the padding {} covers {} dims but the input {} has only {}", amounts, pairs,
              input.sizes(), input.dim());
  if (options.mode() != PadMode::Constant) {
    ACCEL_CHECK(pairs >= 1 && pairs <= 3 && (input.dim() == pairs + 1 || input.dim() == pairs + 2),
                kOp,
                "{} padding of {} dims needs an input of {} or {} dims (channels first, with or "
                "without a batch), got {}",
                name_of(options.mode()), pairs, pairs + 1, pairs + 2, input.sizes());
    const PadShape s = shape_of(input, amounts, options.mode());
    DimVector output_sizes(input.sizes());
    for (int64_t k = 0; k < pairs; ++k) {
      output_sizes[static_cast<size_t>(input.dim() - 1 - k)] = s.out(static_cast<int>(2 - k));
    }
    return padded(input, s, output_sizes);
  }
  Tensor out = input;
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t dim = input.dim() - 1 - k;
    const int64_t before = amounts[static_cast<size_t>(2 * k)];
    const int64_t after = amounts[static_cast<size_t>(2 * k + 1)];
    out = pad_constant(out, dim, before, after, options.value());
  }
  return out;
}

}  // namespace accel::nn::functional
