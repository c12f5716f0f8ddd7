// median, nanmedian, kthvalue, mode and msort: order statistics along a dim, composed from the
// stable sort. Each row's rank to select is computed from its sorted order (NaN counts decide the
// medians' ranks), the index read from the sort's order and the value gathered from the input at
// that index, so the gradient reaches the selected element as in PyTorch. The median of all
// elements records its own backward: PyTorch shares its gradient among the elements equal to it.
#include <limits>

#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

// dim wrapped, after checking that a is defined and that the dim has elements to select from.
int64_t checked_dim(const Tensor& a, int64_t dim, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  const int64_t d = wrap_dim(dim, a.dim(), op);
  ACCEL_CHECK(a.dim() == 0 || a.size(d) > 0, op,
              "expected reduction dim {} to have non-zero size, got shape {}", d, a.sizes());
  return d;
}

void check_numeric(const Tensor& a, const char* op) {
  ACCEL_CHECK(a.dtype() != kBool, op, "expected a numeric tensor, got bool");
}

// a with dim moved last (a 0-dim tensor as one element): the rows to select from.
Tensor rows_along(const Tensor& a, int64_t dim) {
  return a.dim() == 0 ? a.reshape({1}) : a.movedim(dim, -1);
}

// The rows' elements at `indices` ([..., 1], int64, along the last dim) and those indices, shaped
// as the reduction of a along dim.
std::tuple<Tensor, Tensor> select_rows(const Tensor& a, int64_t dim, bool keepdim,
                                       const Tensor& rows, const Tensor& indices) {
  const Tensor values = rows.gather(-1, indices);
  if (a.dim() == 0) return {values.reshape({}), indices.reshape({})};
  auto reduced = [&](const Tensor& t) { return keepdim ? t.movedim(-1, dim) : t.squeeze(-1); };
  return {reduced(values), reduced(indices)};
}

// The median's rank in each row's ascending order. NaN sorts last, so a row with NaN has its first
// NaN at the count of its numbers: median selects it, nanmedian the middle of the numbers (rank
// 0, a NaN, when there are none).
std::tuple<Tensor, Tensor> median_along(const Tensor& a, int64_t dim, bool keepdim, bool ignore_nan,
                                        const char* op) {
  check_numeric(a, op);
  const int64_t d = checked_dim(a, dim, op);
  const Tensor rows = rows_along(a, d);
  const int64_t n = rows.size(-1);
  const Tensor numbers = n - isnan(rows).sum({-1}, true);
  const Tensor rank = ignore_nan ? floor_divide(clamp(numbers - 1, 0, std::nullopt), 2)
                                 : where(lt(numbers, n), numbers, (n - 1) / 2);
  return select_rows(a, d, keepdim, rows, argsort(rows, -1).gather(-1, rank));
}

Tensor median_of_all(const Tensor& a, bool ignore_nan, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  check_numeric(a, op);
  ACCEL_CHECK(a.numel() > 0 || a.is_floating_point(), op,
              "cannot compute on an empty {} tensor (shape {})", a.dtype(), a.sizes());
  Tensor out;
  {
    NoGradGuard forward_only;
    out = a.numel() == 0 ? full({}, std::numeric_limits<double>::quiet_NaN(), a.options())
                         : std::get<0>(median_along(a.reshape({-1}), 0, false, ignore_nan, op));
  }
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out,
                     [saved_a = SavedTensor(a), saved_out = SavedTensor(out)](const Tensor& grad,
                                                                              GradInputs& in) {
                       const Tensor x = saved_a.get();
                       const Tensor median = saved_out.get();
                       const Tensor ties =
                           logical_or(eq(x, median), logical_and(isnan(x), isnan(median)));
                       in[0] = where(ties, grad / ties.sum(), 0);
                     });
  }
  return out;
}

}  // namespace

Tensor median(const Tensor& a) { return median_of_all(a, false, "median"); }

std::tuple<Tensor, Tensor> median(const Tensor& a, int64_t dim, bool keepdim) {
  return median_along(a, dim, keepdim, false, "median");
}

Tensor nanmedian(const Tensor& a) { return median_of_all(a, true, "nanmedian"); }

std::tuple<Tensor, Tensor> nanmedian(const Tensor& a, int64_t dim, bool keepdim) {
  return median_along(a, dim, keepdim, true, "nanmedian");
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& a, int64_t k, int64_t dim, bool keepdim) {
  constexpr const char* op = "kthvalue";
  check_numeric(a, op);
  const int64_t d = checked_dim(a, dim, op);
  const Tensor rows = rows_along(a, d);
  const int64_t n = rows.size(-1);
  ACCEL_CHECK(k >= 1 && k <= n, op, "k ({}) is out of range for dimension {} of size {} ({})", k, d,
              n, a.sizes());
  return select_rows(a, d, keepdim, rows, argsort(rows, -1).narrow(-1, k - 1, 1));
}

std::tuple<Tensor, Tensor> mode(const Tensor& a, int64_t dim, bool keepdim) {
  constexpr const char* op = "mode";
  const int64_t d = checked_dim(a, dim, op);
  const Tensor rows = rows_along(a, d);
  Tensor sorted, order;
  {
    NoGradGuard indices_only;
    std::tie(sorted, order) = sort(rows, -1);
  }
  // Runs of equal values in sorted order; NaN equals nothing, so each NaN is a run of its own.
  const int64_t n = sorted.size(-1);
  const Tensor differs = ne(sorted.narrow(-1, 1, n - 1), sorted.narrow(-1, 0, n - 1));
  DimVector edge_sizes(sorted.sizes());
  edge_sizes.back() = 1;
  const Tensor edge = ones(edge_sizes, sorted.options().dtype(kBool));
  const Tensor position = arange(n, TensorOptions(kInt64).device(a.device()));
  const Tensor run_start = std::get<0>(cummax(where(cat({edge, differs}, -1), position, 0), -1));
  const Tensor run_length = where(cat({differs, edge}, -1), position - run_start + 1, 0);
  // The first longest run holds the smallest of the most frequent values, and its last element
  // (the stable sort keeps equal values in order of index) is that value's last occurrence.
  return select_rows(a, d, keepdim, rows, order.gather(-1, argmax(run_length, -1, true)));
}

Tensor msort(const Tensor& a) { return std::get<0>(sort(a, 0)); }

Tensor Tensor::median() const { return accel::median(*this); }
std::tuple<Tensor, Tensor> Tensor::median(int64_t dim, bool keepdim) const {
  return accel::median(*this, dim, keepdim);
}
Tensor Tensor::nanmedian() const { return accel::nanmedian(*this); }
std::tuple<Tensor, Tensor> Tensor::nanmedian(int64_t dim, bool keepdim) const {
  return accel::nanmedian(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::kthvalue(int64_t k, int64_t dim, bool keepdim) const {
  return accel::kthvalue(*this, k, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::mode(int64_t dim, bool keepdim) const {
  return accel::mode(*this, dim, keepdim);
}
Tensor Tensor::msort() const { return accel::msort(*this); }

}  // namespace accel
