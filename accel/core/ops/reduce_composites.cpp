// Reductions composed of other reductions, whose gradients they inherit: nansum and nanmean
// (NaN elements left out: they get a zero gradient), var_mean and std_mean, aminmax.
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

Tensor zero_nans(const Tensor& a) { return a.is_floating_point() ? where(isnan(a), 0, a) : a; }

}  // namespace

Tensor nansum(const Tensor& a, IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) {
  return sum(zero_nans(a), dims, keepdim, dtype);
}

Tensor nanmean(const Tensor& a, IntArrayRef dims, bool keepdim) {
  ACCEL_CHECK(a.is_floating_point(), "nanmean",
              "expected a floating-point input, got {} (use mean for integers)",
              to_string(a.dtype()));
  const Tensor count = sum(logical_not(isnan(a)), dims, keepdim, a.dtype());
  return div(nansum(a, dims, keepdim), count);
}

std::tuple<Tensor, Tensor> var_mean(const Tensor& a, IntArrayRef dims, int64_t correction,
                                    bool keepdim) {
  return {var(a, dims, correction, keepdim), mean(a, dims, keepdim)};
}

std::tuple<Tensor, Tensor> std_mean(const Tensor& a, IntArrayRef dims, int64_t correction,
                                    bool keepdim) {
  return {std(a, dims, correction, keepdim), mean(a, dims, keepdim)};
}

std::tuple<Tensor, Tensor> aminmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  ACCEL_CHECK(a.numel() > 0 || dim.has_value(), "aminmax",
              "cannot reduce an empty tensor {} over all its elements: there is no minimum",
              a.sizes());
  if (dim) return {amin(a, {*dim}, keepdim), amax(a, {*dim}, keepdim)};
  return {amin(a, {}, keepdim), amax(a, {}, keepdim)};
}

Tensor Tensor::nansum(IntArrayRef dims, bool keepdim, std::optional<ScalarType> dtype) const {
  return accel::nansum(*this, dims, keepdim, dtype);
}
Tensor Tensor::nanmean(IntArrayRef dims, bool keepdim) const {
  return accel::nanmean(*this, dims, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::aminmax(std::optional<int64_t> dim, bool keepdim) const {
  return accel::aminmax(*this, dim, keepdim);
}

}  // namespace accel
