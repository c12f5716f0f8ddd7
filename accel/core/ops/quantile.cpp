// quantile and nanquantile, computed as PyTorch does: sort each row (NaN last), turn q into a
// fractional rank q * (count - 1), and read the sorted row there, interpolating between the ranks
// below and above. A composition of sort, gather and lerp, so gradients flow to the elements at
// those ranks and, through the linear weights, to a tensor q.
#include <cmath>

#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

enum class Interpolation { kLinear, kLower, kHigher, kMidpoint, kNearest };

Interpolation parse_interpolation(std::string_view name, const char* op) {
  if (name == "linear") return Interpolation::kLinear;
  if (name == "lower") return Interpolation::kLower;
  if (name == "higher") return Interpolation::kHigher;
  if (name == "midpoint") return Interpolation::kMidpoint;
  if (name == "nearest") return Interpolation::kNearest;
  fail(op, "expected interpolation linear, lower, higher, midpoint or nearest, got '{}'", name);
}

// PyTorch ranks in a's dtype, whose integers are exact only up to 2^24 in float32.
constexpr int64_t kMaxRowSize = int64_t{1} << 24;

Tensor quantile_impl(const Tensor& a, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                     std::string_view interpolation, bool ignore_nan, const char* op) {
  ACCEL_CHECK(a.defined() && q.defined(), op, "a tensor is undefined");
  ACCEL_CHECK(a.numel() > 0, op, "expected a non-empty input tensor, got shape {}", a.sizes());
  ACCEL_CHECK(q.dim() <= 1, op, "expected q to be a number, a 0-dim or a 1-D tensor, got shape {}",
              q.sizes());
  ACCEL_CHECK(a.dtype() == kFloat32 || a.dtype() == kFloat64, op,
              "expected a float32 or float64 input tensor, got {}", a.dtype());
  ACCEL_CHECK(q.dtype() == a.dtype(), op, "expected q of the input's dtype {}, got {}", a.dtype(),
              q.dtype());
  check_same_device(a, q, op);
  ACCEL_CHECK(logical_and(ge(q, 0), le(q, 1)).all().item<bool>(), op,
              "expected q values in the range [0, 1], got values from {} to {}",
              q.min().item<double>(), q.max().item<double>());
  const Interpolation mode = parse_interpolation(interpolation, op);

  // The rows to reduce, with the reduced dim last, and the result's shape without q's dim.
  Tensor rows;
  DimVector out_sizes;
  if (dim && a.dim() > 0) {
    const int64_t d = wrap_dim(*dim, a.dim(), op);
    rows = a.movedim(d, -1);
    out_sizes = DimVector(a.sizes());
    if (keepdim) {
      out_sizes[static_cast<size_t>(d)] = 1;
    } else {
      out_sizes.erase(static_cast<size_t>(d));
    }
  } else {
    if (dim) wrap_dim(*dim, a.dim(), op);
    rows = a.reshape({-1});
    if (keepdim) out_sizes = DimVector(static_cast<size_t>(a.dim()), 1);
  }
  const int64_t n = rows.size(-1);
  ACCEL_CHECK(n <= kMaxRowSize, op, "expected at most {} elements to reduce, got {}", kMaxRowSize,
              n);

  // Each q reads its own copy of the sorted rows: [q, rows..., n]; the ranks are [q, rows..., 1].
  const Tensor sorted = std::get<0>(sort(rows, -1)).unsqueeze(0);
  DimVector sizes(sorted.sizes());
  sizes[0] = q.numel();
  const Tensor sorted_rows = sorted.expand(sizes);
  DimVector q_sizes(sizes.size(), 1);
  q_sizes[0] = q.numel();
  const Tensor q_column = q.reshape(q_sizes);

  Tensor rank;
  if (ignore_nan) {
    // The middle of each row's numbers; a row of NaN only reads rank 0, a NaN.
    const Tensor numbers = logical_not(isnan(sorted)).sum({-1}, true);
    const Tensor r = q_column * (numbers - 1);
    rank = where(lt(r, 0), 0, r);
  } else {
    // A row with NaN reads its last element, a NaN.
    rank = where(any(isnan(sorted), -1, true), n - 1, q_column * (n - 1));
  }
  if (mode == Interpolation::kLower) rank = floor(rank);
  if (mode == Interpolation::kHigher) rank = ceil(rank);
  if (mode == Interpolation::kNearest) rank = round(rank);
  const Tensor below = floor(rank);
  Tensor values = sorted_rows.gather(-1, below.to(kInt64));
  if (mode == Interpolation::kLinear || mode == Interpolation::kMidpoint) {
    const Tensor above = sorted_rows.gather(-1, ceil(rank).to(kInt64));
    const Tensor weight = mode == Interpolation::kLinear ? rank - below : full_like(rank, 0.5);
    values = lerp(values, above, weight);
  }
  if (q.dim() == 1) out_sizes.insert(0, q.numel());
  return values.reshape(out_sizes);
}

Tensor q_tensor(const Tensor& a, double q, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(q >= 0 && q <= 1, op, "expected q in the range [0, 1], got {}", q);
  return scalar_tensor(q, a.options());
}

}  // namespace

Tensor quantile(const Tensor& a, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl(a, q, dim, keepdim, interpolation, false, "quantile");
}

Tensor quantile(const Tensor& a, double q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile(a, q_tensor(a, q, "quantile"), dim, keepdim, interpolation);
}

Tensor nanquantile(const Tensor& a, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return quantile_impl(a, q, dim, keepdim, interpolation, true, "nanquantile");
}

Tensor nanquantile(const Tensor& a, double q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return nanquantile(a, q_tensor(a, q, "nanquantile"), dim, keepdim, interpolation);
}

Tensor Tensor::quantile(double q, std::optional<int64_t> dim, bool keepdim,
                        std::string_view interpolation) const {
  return accel::quantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::quantile(const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                        std::string_view interpolation) const {
  return accel::quantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::nanquantile(double q, std::optional<int64_t> dim, bool keepdim,
                           std::string_view interpolation) const {
  return accel::nanquantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::nanquantile(const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                           std::string_view interpolation) const {
  return accel::nanquantile(*this, q, dim, keepdim, interpolation);
}

}  // namespace accel
