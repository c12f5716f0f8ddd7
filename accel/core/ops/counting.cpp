// Counting into bins: bincount (a bin per integer value), histc (equal-width bins over a range)
// and count_nonzero. Each bin index is computed element-wise and the counts (or weights) are
// added into their bins by the scatter kernels index_add runs, so every device runs them, in the
// same order. Their results carry no gradient.
#include <cmath>

#include "accel/core/ops/index_support.h"
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

// counts[bins[i]] += terms[i]: index_add's scatter kernel without index_add's argument checks
// (the caller's arguments fit).
Tensor added_into_bins(const char* op, const Tensor& counts, const Tensor& bins,
                       const Tensor& terms) {
  scatter_into(op, math::ScatterReduce::Sum, counts, 0, bins, terms);
  return counts;
}

}  // namespace

Tensor bincount(const Tensor& input, const Tensor& weights, int64_t minlength) {
  constexpr const char* op = "bincount";
  ACCEL_CHECK(input.defined(), op, "the input is undefined");
  ACCEL_CHECK(input.dim() == 1 && is_integral(input.dtype(), false), op,
              "supports 1-D non-negative integer inputs only, got {} of dtype {}", input.sizes(),
              input.dtype());
  ACCEL_CHECK(minlength >= 0, op, "minlength must be >= 0, got {}", minlength);
  NoGradGuard counts_only;
  const Tensor index = input.to(kInt64);
  int64_t length = minlength;
  if (input.numel() > 0) {
    const int64_t lowest = index.min().item<int64_t>();
    ACCEL_CHECK(lowest >= 0, op, "the input must be non-negative, got {}", lowest);
    length = std::max(length, index.max().item<int64_t>() + 1);
  }
  const TensorOptions options = TensorOptions().device(input.device());
  if (!weights.defined()) {
    const Tensor one_each = ones({1}, options.dtype(kInt64)).expand(index.sizes());  // no memory
    return added_into_bins(op, zeros({length}, options.dtype(kInt64)), index, one_each);
  }
  ACCEL_CHECK(weights.dim() == 1 && weights.size(0) == input.size(0), op,
              "the weights must be 1-D with the input's length {}, got {}", input.size(0),
              weights.sizes());
  check_same_device(input, weights, op);
  // PyTorch keeps float32 weights and sums every other dtype in float64.
  const ScalarType sum_type = weights.dtype() == kFloat32 ? kFloat32 : kFloat64;
  return added_into_bins(op, zeros({length}, options.dtype(sum_type)), index, weights.to(sum_type));
}

Tensor histc(const Tensor& input, int64_t bins, const Scalar& min, const Scalar& max) {
  constexpr const char* op = "histc";
  ACCEL_CHECK(input.defined(), op, "the input is undefined");
  ACCEL_CHECK(input.is_floating_point(), op, "expected a floating point input, got {}",
              input.dtype());
  ACCEL_CHECK(bins > 0, op, "bins must be > 0, got {}", bins);
  double low = min.to_double(), high = max.to_double();
  ACCEL_CHECK(!(low > high), op, "max must be larger than min, got min {} and max {}", low, high);
  NoGradGuard counts_only;
  const ScalarType dtype = input.dtype();
  const Tensor flat = input.reshape({-1});
  if (low == high && flat.numel() > 0) {
    low = flat.min().item<double>();
    high = flat.max().item<double>();
  }
  if (low == high) {
    low -= 1;
    high += 1;
  }
  ACCEL_CHECK(std::isfinite(low) && std::isfinite(high), op, "the range [{}, {}] is not finite",
              low, high);
  // The edges and the bin arithmetic are in the input's dtype, as PyTorch computes them:
  // bin = trunc((x - low) * bins / (high - low)), the value high going in the last bin.
  const auto in_dtype = [&](double v) { return scalar_tensor(v, dtype).item<double>(); };
  low = in_dtype(low);
  high = in_dtype(high);
  const double width = in_dtype(high - low);
  const Tensor in_range = logical_and(ge(flat, low), le(flat, high));
  // Elements outside the range (NaN and infinities included) go to an extra bin, dropped at
  // the end; low stands in for them in the arithmetic.
  const Tensor inside = where(in_range, flat, low);
  // Clamped as integers: a 16-bit float may not hold bins - 1.
  const Tensor bin = clamp(trunc((inside - low) * bins / width).to(kInt64), 0, bins - 1);
  const Tensor slot = bin.masked_fill(logical_not(in_range), bins);
  const TensorOptions options = TensorOptions(dtype).device(input.device());
  const Tensor counts = added_into_bins(op, zeros({bins + 1}, options), slot,
                                        ones({1}, options).expand(slot.sizes()));
  return counts.narrow(0, 0, bins);
}

Tensor count_nonzero(const Tensor& input, IntArrayRef dims) {
  ACCEL_CHECK(input.defined(), "count_nonzero", "the input is undefined");
  NoGradGuard counts_only;
  return sum(ne(input, 0), dims, false, kInt64);
}

Tensor Tensor::bincount(const Tensor& weights, int64_t minlength) const {
  return accel::bincount(*this, weights, minlength);
}
Tensor Tensor::histc(int64_t bins, const Scalar& min, const Scalar& max) const {
  return accel::histc(*this, bins, min, max);
}
Tensor Tensor::count_nonzero(IntArrayRef dims) const { return accel::count_nonzero(*this, dims); }

}  // namespace accel
