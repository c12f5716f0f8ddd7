// pad: each padded dim in turn, from the last. Constant padding narrows away negative amounts and
// concatenates blocks of the value; the other modes select, along the dim, the source element of
// every output position (mirrored, clamped or wrapped), so gradients sum back through
// index_select into the elements that were copied.
#include "accel/nn/functional/pad.h"

#include <algorithm>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

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

// The source position along the dim for each output position j in [-before, size + after).
int64_t source_of(int64_t j, int64_t size, PadMode mode) {
  switch (mode) {
    case PadMode::Reflect:
      return j < 0 ? -j : j >= size ? 2 * (size - 1) - j : j;
    case PadMode::Replicate:
      return std::clamp<int64_t>(j, 0, size - 1);
    case PadMode::Circular:
      return (j % size + size) % size;
    case PadMode::Constant:
      break;
  }
  return j;
}

Tensor pad_by_selection(const Tensor& x, int64_t dim, int64_t before, int64_t after, PadMode mode) {
  const int64_t size = x.size(dim);
  const int64_t limit = mode == PadMode::Reflect ? size - 1 : size;
  ACCEL_CHECK(std::max(before, after) <= limit && size + before + after >= 0, kOp,
              "{} padding ({}, {}) of dimension {} must be at most {} for its size {}",
              name_of(mode), before, after, dim, limit, size);
  std::vector<int64_t> sources;
  for (int64_t j = -before; j < size + after; ++j) sources.push_back(source_of(j, size, mode));
  return x.index_select(dim, tensor(sources).to(x.device()));
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
  }
  Tensor out = input;
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t dim = input.dim() - 1 - k;
    const int64_t before = amounts[static_cast<size_t>(2 * k)];
    const int64_t after = amounts[static_cast<size_t>(2 * k + 1)];
    out = options.mode() == PadMode::Constant
              ? pad_constant(out, dim, before, after, options.value())
              : pad_by_selection(out, dim, before, after, options.mode());
  }
  return out;
}

}  // namespace accel::nn::functional
